import { custom, defineFormType, length } from 'payload-cwa'

export const ContactFormType = defineFormType({
  className: 'ContactFormType', // the value of Form.formType
  formName: 'contact', // root key of a submitted body
  attr: { novalidate: true },
  fields: [
    { name: 'name', type: 'text', required: true, label: 'Your name', constraints: [length({ max: 50 })] },
    { name: 'email', type: 'email', required: true },
    { name: 'topic', type: 'choice', choices: ['sales', { value: 'help', label: 'Support' }] },
    { name: 'agree', type: 'checkbox', required: true },
    { name: 'source', type: 'hidden', default: 'website' },
    {
      name: 'nickname',
      type: 'text',
      constraints: [custom(async (value) => (value === 'admin' ? 'This nickname is reserved.' : null))],
    },
  ],
  // The success listener: persistSubmission('<collection>') stores the data; this one answers with a result.
  onSubmit: (event) => {
    event.result = { '@type': 'ContactReceived', name: event.data.name, topic: event.data.topic }
  },
})

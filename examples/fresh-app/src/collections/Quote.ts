import { defineComponent } from 'payload-cwa'

// An API component type: served at /_api/component/quotes with @type "Quote".
export const Quote = defineComponent({
  shortName: 'Quote',
  fields: [
    { name: 'text', type: 'textarea', required: true },
    { name: 'author', type: 'text' },
  ],
})

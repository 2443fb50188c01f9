import type { CollectionConfig, PayloadRequest } from 'payload'
import { getOptions } from '../../src/hydra/registry'
import { defineComponent } from '../cwa/define'
import { formTypesOf } from './types'

/** The built-in Form component: a server-side form rendered as JSON. */
export function formComponent(): CollectionConfig {
  return defineComponent({
    shortName: 'Form',
    fields: [
      {
        name: 'formType',
        type: 'text',
        required: true,
        validate: (value: unknown, { req }: { req: PayloadRequest }) => {
          if (typeof value !== 'string' || value === '') return 'This value should not be blank.'
          const types = formTypesOf(getOptions(req.payload.config).raw as Parameters<typeof formTypesOf>[0])
          return types.has(value) ? true : `"${value}" is not a registered form type (FormTypeClass).`
        },
      },
    ],
    timestamped: true,
  })
}

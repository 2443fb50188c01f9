import type { CollectionConfig, PayloadRequest } from 'payload'
import { getOptions } from '../../core/registry.js'
import { defineComponent } from '../../core/define.js'
import { getCwaMeta } from '../../core/types.js'
import { formTypeRegistry } from './registry.js'
import { formTypeHash } from './cachePurge.js'

/** The built-in Form component: a server-side form rendered as JSON. */
export function formComponent(): CollectionConfig {
  const collection = defineComponent({
    shortName: 'Form',
    adminIcon: 'form',
    collection: {
      labels: { singular: 'Form', plural: 'Forms' },
      admin: { description: 'A form of a registered form type (contact, newsletter...).' },
    },
    fields: [
      {
        name: 'formType',
        type: 'text',
        required: true,
        admin: { description: 'Class name of a registered form type (e.g. ExampleFormType).' },
        validate: (value: unknown, { req }: { req: PayloadRequest }) => {
          if (typeof value !== 'string' || value === '') return 'This value should not be blank.'
          const { types } = formTypeRegistry(getOptions(req.payload.config))
          return types.has(value) ? true : `"${value}" is not a registered form type (FormTypeClass).`
        },
      },
      {
        // The content hash of the form type when the Form was written (cachePurge.ts): never served,
        // never written by clients; a new or changed formType stores its type's hash.
        name: 'formTypeHash',
        type: 'text',
        hidden: true,
        hooks: {
          beforeChange: [
            ({ value, data, originalDoc, operation, req }) => {
              const formType =
                (data as { formType?: unknown } | undefined)?.formType ??
                (originalDoc as { formType?: unknown } | undefined)?.formType
              const changed =
                operation === 'create' ||
                (data &&
                  'formType' in data &&
                  data.formType !== (originalDoc as { formType?: unknown } | undefined)?.formType)
              if (!changed || typeof formType !== 'string') return value
              const type = formTypeRegistry(getOptions(req.payload.config)).types.get(formType)
              return type ? formTypeHash(type) : null
            },
          ],
        },
      },
      {
        // Never stored: the forms extension builds it on every read and submit. Declared so that
        // the API documentation describes it.
        name: 'formView',
        type: 'json',
        virtual: true,
        admin: { hidden: true, description: 'The form rendered as a Symfony-compatible FormView tree (read only).' },
      },
    ],
    timestamped: true,
  })
  // formView is serialized, never written through the API (documented read-only).
  getCwaMeta(collection)!.readOnly = ['formView']
  return collection
}

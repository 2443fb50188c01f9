import type { OpenApiKit, Schema } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'
import type { Resource } from '../../core/registry.js'
import { BUILT_IN_FORMS } from './builtIn/userForms.js'

/** The OpenAPI description of the form endpoints (endpoints.ts). */

/** The `{id}` of the submit endpoints, declared on them (endpoints.ts). */
export const formIdParameter = {
  description: `A stored Form's UUID, or a built-in form id (${Object.keys(BUILT_IN_FORMS).join(', ')})`,
}

function parts(kit: OpenApiKit, forms: Resource, params: Record<string, Schema>) {
  const read = kit.schemaNames.read(forms)
  const body = {
    required: true,
    description: 'The field values nested under the form name: {"<form_name>": {"<field>": <value>}}',
  }
  const bodySchema = {
    schema: { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: { type: 'object' } },
  }
  const invalid = {
    description:
      'Invalid: the Form with the errors in its formView, plus violations per field; or "Form object key could not be found."',
    content: { [kit.media.jsonld]: { schema: kit.ref(read) } },
  }
  const common = { tags: ['Form'], security: kit.security(true), parameters: [params.id!] }
  return { read, body, bodySchema, invalid, common }
}

export const formDocs = {
  submit:
    (forms: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { read, body, bodySchema, invalid, common } = parts(kit, forms, params)
      return {
        operation: {
          ...common,
          operationId: 'submitForm',
          summary: 'Submits a form in full (missing fields count as empty); fires the success event.',
          requestBody: { ...body, content: { [kit.media.json]: bodySchema, [kit.media.jsonld]: bodySchema } },
          responses: {
            201: kit.jsonLdResponse('Submitted: the Form (or the result a success listener set)', read),
            ...kit.errorResponses(401, 404, 415),
            422: invalid,
          },
        },
      }
    },
  validate:
    (forms: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { read, body, bodySchema, invalid, common } = parts(kit, forms, params)
      return {
        operation: {
          ...common,
          operationId: 'validateFormFields',
          summary: 'Validates only the fields sent; never fires the success event.',
          requestBody: { ...body, content: { [kit.media.mergePatch]: bodySchema } },
          responses: {
            200: kit.jsonLdResponse('Valid: the Form with the updated formView', read),
            ...kit.errorResponses(404, 415),
            422: invalid,
          },
        },
      }
    },
  builtIn:
    (forms: Resource, name: string) =>
    (kit: OpenApiKit): EndpointDoc => ({
      operation: {
        operationId: `getBuiltInForm_${name}`,
        tags: ['Form'],
        summary: `The built-in ${name} form, with its formView.`,
        security: kit.security(true),
        responses: {
          200: kit.jsonLdResponse(`The ${name} form`, kit.schemaNames.read(forms)),
          ...kit.errorResponses(401, 403),
        },
      },
    }),
}

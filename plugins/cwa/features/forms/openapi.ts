import type { OpenApiContribution, OpenApiKit } from '../../hydra/docs/openapi'
import { BUILT_IN_FORMS } from './builtIn/userForms'
import { FORMS_SLUG } from './submit'

/** The /submit operations of the Form resource, for the OpenAPI document. */
export function formsOpenApi(kit: OpenApiKit): OpenApiContribution | undefined {
  const forms = kit.registry.bySlug(FORMS_SLUG)
  if (!forms) return undefined
  const read = kit.schemaNames.read(forms)
  const builtIn = Object.keys(BUILT_IN_FORMS).join(', ')
  const id = {
    name: 'id',
    in: 'path',
    required: true,
    description: `A stored Form's UUID, or a built-in form id (${builtIn})`,
    schema: { type: 'string' },
  }
  const body = {
    required: true,
    description: 'The field values nested under the form name: {"<form_name>": {"<field>": <value>}}',
    content: {} as Record<string, unknown>,
  }
  const bodySchema = { schema: { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: { type: 'object' } } }
  const invalid = {
    description: 'Invalid: the Form with the errors in its formView, plus violations per field; or "Form object key could not be found."',
    content: { [kit.media.jsonld]: { schema: kit.ref(read) } },
  }
  const common = { tags: ['Form'], security: kit.security(true), parameters: [id] }
  return {
    paths: {
      [`${forms.collectionIri}/{id}/submit`]: {
        post: {
          ...common,
          operationId: 'submitForm',
          summary: 'Submits a form in full (missing fields count as empty); fires the success event.',
          requestBody: { ...body, content: { [kit.media.json]: bodySchema, [kit.media.jsonld]: bodySchema } },
          responses: {
            201: kit.jsonLdResponse('Submitted: the Form (or the result a success listener set)', read),
            401: kit.responseRef('Unauthorized'),
            404: kit.responseRef('NotFound'),
            415: kit.responseRef('UnsupportedMediaType'),
            422: invalid,
          },
        },
        patch: {
          ...common,
          operationId: 'validateFormFields',
          summary: 'Validates only the fields sent; never fires the success event.',
          requestBody: { ...body, content: { [kit.media.mergePatch]: bodySchema } },
          responses: {
            200: kit.jsonLdResponse('Valid: the Form with the updated formView', read),
            404: kit.responseRef('NotFound'),
            415: kit.responseRef('UnsupportedMediaType'),
            422: invalid,
          },
        },
      },
    },
  }
}

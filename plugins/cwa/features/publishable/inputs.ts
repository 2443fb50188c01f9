import { input } from '../../hydra/input.js'
import type { Resource } from '../../core/registry.js'

const REQUIRED = { message: 'A non-empty list of draft IRIs is required.', code: 'required', path: 'iris' }

/**
 * The body of POST /_/publish: a list of 1 to 200 IRIs (a list missing, empty or holding a non-string is a
 * 422 on iris, a longer one a 400); each names a draft of one of `publishable`, which the handler checks.
 */
export const publishInput = (publishable: Resource[]) =>
  input.object(
    {
      iris: input.array(input.string({ format: 'iri-reference' }), {
        minItems: 1,
        maxItems: 200,
        description: `IRIs of drafts of publishable types (${publishable.map((r) => r.meta.shortName).join(', ')})`,
        refuseFor: { maxItems: { badRequest: 'At most 200 IRIs at once.' } },
      }),
    },
    { name: 'Publishing.Request', required: ['iris'], refuse: REQUIRED },
  )

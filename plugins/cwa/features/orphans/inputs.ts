import { input } from '../../hydra/input.js'

/**
 * The body of POST /_/orphaned_resources/delete: exactly one of {iris: [IRI...]} or {all: true}; anything else
 * is a 422 and nothing is deleted (delete rule 1). Which IRIs are orphans is the handler's (a scan in the request).
 */
export const deleteOrphansInput = input.oneOf(
  [
    input.object(
      {
        iris: input.array(input.string({ format: 'iri-reference' }), {
          maxItems: 10000,
          description: 'IRIs to delete',
          refuse: { message: 'iris must be a list of IRI strings.', code: 'invalid' },
          refuseFor: { maxItems: { message: 'At most 10000 IRIs at once.', code: 'too_many' } },
        }),
      },
      { required: ['iris'] },
    ),
    input.object(
      {
        all: input.boolean({ enum: [true], refuse: { message: 'all must be true (or send iris).', code: 'invalid' } }),
      },
      { required: ['all'] },
    ),
  ],
  {
    refuse: { message: 'Send iris (a list of IRIs) or all: true.', code: 'required' },
    refuseFor: { oneOf: { message: 'Send either iris or all: true, not both.', code: 'exclusive' } },
  },
)

import { input, type InputOf, type InputRefusal } from '../../hydra/input.js'

/**
 * The bodies of the page builder's writes that have a fixed shape. Each
 * refusal is the one its handler answered before the schemas: a body that is
 * no object, and each field's own message (a field that is not a string says
 * what a bad IRI says: the handler checks what the IRI names).
 */

const OBJECT_REQUIRED: InputRefusal = { message: 'A JSON object is required.', code: 'invalid', path: '' }

const iri = (property: string, what: string, description: string) =>
  input.string({
    format: 'iri-reference',
    description,
    refuse: { message: `${property} must be the IRI of ${what}.`, code: 'invalid_iri' },
  })

const includeLayout = input.boolean({
  default: false,
  refuse: { message: 'includeLayout must be true or false.', code: 'type' },
})

const owner = iri('iri', 'a page, a layout or page data', 'A page, a layout or page data')

/** POST /_/page_builder/remove {position}. */
export const removeInput = input.object(
  { position: iri('position', 'a component position', 'The position') },
  { required: ['position'], refuse: OBJECT_REQUIRED },
)

/** POST /_/page_builder/publish {iri, includeLayout?}: includeLayout is checked first, as it always was. */
export const publishPageInput = input.object(
  { iri: owner, includeLayout },
  { required: ['iri'], refuse: OBJECT_REQUIRED, checkOrder: ['includeLayout', 'iri'] },
)

/** POST /_/page_builder/schedule {iri, publishedAt, includeLayout?}: a date in the future. */
export const schedulePageInput = input.object(
  {
    iri: owner,
    publishedAt: input.string({
      format: 'date-time',
      refuse: { message: 'publishedAt must be a date and time (ISO 8601).', code: 'datetime' },
      refuseFor: {
        check: { message: 'publishedAt must be in the future; use "Publish page" to publish now.', code: 'future' },
      },
      check: (value: string) => new Date(value) > new Date(),
    }),
    includeLayout,
  },
  { required: ['iri', 'publishedAt'], refuse: OBJECT_REQUIRED, checkOrder: ['includeLayout', 'publishedAt', 'iri'] },
)

export type RemoveBody = InputOf<typeof removeInput>
export type PublishPageBody = InputOf<typeof publishPageInput>
export type SchedulePageBody = InputOf<typeof schedulePageInput>

import type { HydraContext } from '../../hydra/context.js'
import { input, type InputOf, type InputRefusal } from '../../hydra/input.js'
import type { Resource } from '../../core/registry.js'

/**
 * The bodies of the page builder's writes that have a fixed shape. Each
 * refusal is the one its handler answered before the schemas: a body that is
 * no object, and each field's own message (a field that is not a string says
 * what a bad IRI says: the handler checks what the IRI names).
 */

const OBJECT_REQUIRED: InputRefusal = { message: 'A JSON object is required.', code: 'invalid', path: '' }

/**
 * The IRI of an item whose type `accepts`: one message for a value that is no string and for an IRI naming
 * something else (`componentGroup must be the IRI of a component group.`), at the property's path.
 */
const itemIri = (property: string, what: string, description: string, accepts: (type: Resource) => boolean) =>
  input.string({
    format: 'iri-reference',
    description,
    refuse: { message: `${property} must be the IRI of ${what}.`, code: 'invalid_iri' },
    check: (value: string, ctx: HydraContext) => {
      const parsed = ctx.registry.parseIri(value)
      return Boolean(parsed?.id) && accepts(parsed!.resource)
    },
  })

/** The item an IRI its input checked names (slug and id). */
export function checkedItem(ctx: HydraContext, iri: string): { slug: string; id: string } {
  const parsed = ctx.registry.parseIri(iri)!
  return { slug: parsed.resource.slug, id: parsed.id! }
}

const componentGroup = itemIri('componentGroup', 'a component group', 'The group', (r) => r.slug === 'component_groups')

/** POST /_/page_builder/reorder {componentGroup, positions: [IRI...]}: 1 to 1000 positions. */
export const reorderInput = input.object(
  {
    componentGroup,
    positions: input.array(
      input.string({
        format: 'iri-reference',
        description: 'A position of the group',
        refuse: { message: (path) => `${path} must be the IRI of a component position.`, code: 'invalid_iri' },
        check: (value: string, ctx: HydraContext) => {
          const parsed = ctx.registry.parseIri(value)
          return Boolean(parsed?.id) && parsed!.resource.slug === 'component_positions'
        },
      }),
      {
        minItems: 1,
        maxItems: 1000,
        itemsLast: true,
        refuse: { message: 'positions must be a non-empty list of position IRIs.', code: 'required' },
        refuseFor: { maxItems: { message: 'At most 1000 positions.', code: 'too_many' } },
      },
    ),
  },
  { required: ['componentGroup', 'positions'], refuse: OBJECT_REQUIRED },
)

/** POST /_/page_builder/positions {componentGroup, component} (and the placing of a new block, blockWrites.ts). */
export const appendInput = input.object(
  {
    componentGroup,
    component: itemIri('component', 'a component', 'The component', (r) => r.meta.kind === 'component'),
  },
  { required: ['componentGroup', 'component'], refuse: OBJECT_REQUIRED },
)

/** POST /_/page_builder/groups {owner, location}. */
export const addGroupInput = input.object(
  {
    owner: itemIri(
      'owner',
      'a page or a layout',
      'A page or a layout',
      (r) => r.slug === 'pages' || r.slug === 'layouts',
    ),
    location: input.string({
      pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$',
      refuse: {
        message: 'location must be a name of letters, digits, _ or - (at most 64), starting with a letter.',
        code: 'invalid',
      },
    }),
  },
  { required: ['owner', 'location'], refuse: OBJECT_REQUIRED },
)

const includeLayout = input.boolean({
  default: false,
  refuse: { message: 'includeLayout must be true or false.', code: 'type' },
})

const owner = itemIri(
  'iri',
  'a page, a layout or page data',
  'A page, a layout or page data',
  (r) => r.slug === 'pages' || r.slug === 'layouts' || r.meta.kind === 'pageData',
)

/** POST /_/page_builder/remove {position}. */
export const removeInput = input.object(
  {
    position: itemIri('position', 'a component position', 'The position', (r) => r.slug === 'component_positions'),
  },
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

/**
 * POST /_/page_builder/blocks {componentGroup, type, data?}: type is a component type's collection IRI, data an
 * object of strings (its text fields, a file as a data URI). Checked in the handler's order: the type, then data
 * (an object), then the handler's own rules: data's fields, which depend on the type (blockWrites.ts), and only
 * then componentGroup, which the handler checks itself (a string before the create, the IRI of a group after
 * it): componentGroup is declared, documented and readable, but left out of `checkOrder`.
 */
export const addBlockInput = input.object(
  {
    componentGroup: input.string({ format: 'iri-reference', description: 'The group' }),
    type: input.string({
      format: 'iri-reference',
      description: 'The component type (collection IRI)',
      refuse: { message: 'type must be the collection IRI of a component type.', code: 'invalid_iri' },
      check: (value: string, ctx: HydraContext) => {
        const parsed = ctx.registry.parseIri(value)
        return Boolean(parsed) && !parsed!.id && parsed!.resource.meta.kind === 'component'
      },
    }),
    data: input.object(
      {},
      {
        additionalProperties: input.string(),
        refuse: { message: 'data must be an object of the block’s fields.', code: 'type' },
      },
    ),
  },
  { required: ['componentGroup', 'type'], refuse: OBJECT_REQUIRED, checkOrder: ['type', 'data'] },
)

export type AppendBody = InputOf<typeof appendInput>
export type ReorderBody = InputOf<typeof reorderInput>
export type AddGroupBody = InputOf<typeof addGroupInput>
export type RemoveBody = InputOf<typeof removeInput>
export type PublishPageBody = InputOf<typeof publishPageInput>
export type SchedulePageBody = InputOf<typeof schedulePageInput>
export type AddBlockBody = InputOf<typeof addBlockInput>

import type { CollectionSlug, Field } from 'payload'
import { dataFields, type Resource } from '../../core/registry.js'
import { inTransaction } from '../../core/utils/sql.js'
import type { HydraContext } from '../../hydra/context.js'
import { violation, ViolationError } from '../../hydra/errors.js'
import { checkInput } from '../../hydra/inputCheck.js'
import { type AddBlockBody, appendInput } from './inputs.js'
import { appendPosition } from './writes.js'
import { fieldLabel } from '../adminTitles/index.js'

type Doc = Record<string, unknown> & { id: string }

/**
 * The field the page builder edits in place for a type (its "main" field),
 * and the ones it offers when a block is added:
 * - file: an uploadable type's file (its first file property), uploaded
 *   straight from the builder as a named data URI, with `alt` beside it when
 *   the type has one;
 * - html: a type holding `html` (HtmlContent): typed in the builder with the
 *   site's Lexical editor (RichTextInPlace), sent as HTML;
 * - text / textarea: the type's first own text field (a Title's title, a
 *   link's label).
 */
export interface MainField {
  name: string
  label: string
  kind: 'file' | 'html' | 'text' | 'textarea'
  /** On an uploadable type: the type's own text description of the file (`alt`), if it has one. */
  alt?: { name: string; label: string }
  /** A type linking to a page (a relation to routes, a NavigationLink's `route`): picked in the add form. */
  link?: { name: string; label: string }
}

const BASE = new Set([
  'uiComponent',
  'uiClassNames',
  'componentGroups',
  'componentPositions',
  'publishedAt',
  'adminTitle',
])

/** A type as the admin names it: its collection's singular label (the final config's: features complete the labels), else its short name. */
export function typeLabel(ctx: HydraContext, resource: Resource): string {
  const config = ctx.payload.collections[resource.slug as CollectionSlug]?.config ?? resource.collection
  const singular = (config.labels as { singular?: unknown } | undefined)?.singular
  return typeof singular === 'string' && singular ? singular : resource.meta.shortName
}

const labelOf = (field: Field & { name: string }) => fieldLabel(field, field.name)

/** Text fields an editor may type into (not read-only, not derived, not the library's own). */
function editableText(resource: Resource): Array<Field & { name: string }> {
  return dataFields(resource.collection.fields).filter(
    (f) =>
      !BASE.has(f.name) &&
      (f.type === 'text' || f.type === 'textarea') &&
      !f.admin?.readOnly &&
      !('virtual' in f && f.virtual) &&
      !('hasMany' in f && f.hasMany),
  ) as Array<Field & { name: string }>
}

export function mainFieldOf(resource: Resource): MainField | null {
  const fields = dataFields(resource.collection.fields) as Array<Field & { name: string }>
  const files = Object.keys(resource.meta.uploadable ?? {})
  if (files[0]) {
    const alt = fields.find((f) => f.name === 'alt' && f.type === 'text')
    return {
      name: files[0],
      label: 'File',
      kind: 'file',
      ...(alt ? { alt: { name: alt.name, label: labelOf(alt) } } : {}),
    }
  }
  const html = fields.find((f) => f.name === 'html' && (f.type === 'textarea' || f.type === 'text'))
  if (html) return { name: 'html', label: 'Text', kind: 'html' }
  const text = editableText(resource).find((f) => !(f.admin as { hidden?: boolean } | undefined)?.hidden)
  if (!text) return null
  const link = routeLinkOf(resource)
  return {
    name: text.name,
    label: labelOf(text),
    kind: text.type === 'textarea' ? 'textarea' : 'text',
    ...(link ? { link: { name: link.name, label: labelOf(link) } } : {}),
  }
}

/** A type's one relation to a route (a link to a page of the site), if it has one. */
function routeLinkOf(resource: Resource): (Field & { name: string }) | undefined {
  return (dataFields(resource.collection.fields) as Array<Field & { name: string }>).find(
    (f) => f.type === 'relationship' && f.relationTo === 'routes' && !('hasMany' in f && f.hasMany),
  )
}

/** A route's IRI as the add form sends it, to the relation's value (the route's id); a violation otherwise. */
function routeValue(ctx: HydraContext, path: string, value: unknown): string {
  const parsed = typeof value === 'string' ? ctx.registry.parseIri(value) : null
  if (!parsed?.id || parsed.resource.slug !== 'routes')
    throw new ViolationError([violation(path, 'A route is given as its IRI.', 'invalid_iri')])
  return parsed.id
}

/**
 * What a new block may be given in the same step: its text fields, its file properties (data URIs) and its link
 * to a route (the route's IRI), nothing else. Its input checked that data is an object; what each field may hold depends on the type.
 */
function blockData(ctx: HydraContext, resource: Resource, given: AddBlockBody['data']): Record<string, unknown> {
  if (given === undefined) return {}
  const link = routeLinkOf(resource)?.name
  const texts = new Set(editableText(resource).map((f) => f.name))
  const html = mainFieldOf(resource)?.kind === 'html'
  const files = new Set(Object.keys(resource.meta.uploadable ?? {}))
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(given)) {
    const path = `data.${name}`
    if (name === link) {
      out[name] = routeValue(ctx, path, value)
      continue
    }
    if (files.has(name)) {
      if (typeof value !== 'string' || !value.startsWith('data:'))
        throw new ViolationError([
          violation(path, 'A file is sent as a data URI (data:<type>;name=<file name>;base64,...).', 'type'),
        ])
    } else if (texts.has(name) || (html && name === 'html')) {
      if (typeof value !== 'string')
        throw new ViolationError([violation(path, 'This value should be of type string.', 'type')])
    } else {
      throw new ViolationError([
        violation(
          path,
          `A new ${resource.meta.shortName} block cannot be given "${name}" here: add it, then edit it.`,
          'unknown_field',
        ),
      ])
    }
    out[name] = value
  }
  return out
}

/**
 * POST /_/page_builder/blocks {componentGroup, type, data?}: a new block
 * with its content in one step: the component (type: its collection IRI;
 * data: its text fields, and a file as a named data URI) created as the
 * editor (a publishable type starts as a draft), then placed at the group's
 * end, in ONE transaction: a refused file, field or type leaves nothing.
 */
export async function addBlock(
  ctx: HydraContext,
  body: AddBlockBody,
): Promise<{ component: Doc; slug: string; position: Doc }> {
  // Its input checked the body, the type (a component type's collection IRI) and that data is an object.
  const resource = ctx.registry.parseIri(body.type)!.resource
  const data = blockData(ctx, resource, body.data)
  // Checked here, after the fields, as it always was (its input leaves it out of its checks: addBlockInput).
  const componentGroup: unknown = body.componentGroup
  if (typeof componentGroup !== 'string')
    throw new ViolationError([
      violation('componentGroup', 'componentGroup must be the IRI of a component group.', 'invalid_iri'),
    ])
  return inTransaction(ctx.req, async () => {
    // As the editor: the type's access, validation and publishable rules apply as to any create.
    // Ids are UUID strings here (the plugin's adapter runs with idType 'uuid'); Payload's own type says number | string.
    const component = (await ctx.payload.create({
      collection: resource.slug as CollectionSlug,
      data,
      depth: 0,
      overrideAccess: false,
      req: ctx.req,
    })) as Doc
    const placement = { componentGroup, component: ctx.registry.itemIri(resource.slug, component.id) }
    // The group is checked here, once the component is created (a refused group rolls the create back), as the
    // positions endpoint's input checks it.
    checkInput(appendInput, placement, ctx)
    const position = await appendPosition(ctx, placement)
    return { component, slug: resource.slug, position }
  })
}

import {
  APIError,
  type CollectionAfterChangeHook,
  type CollectionBeforeChangeHook,
  type CollectionSlug,
  executeAccess,
  Forbidden,
  type Field,
  type PayloadRequest,
  ValidationError,
  type Where,
} from 'payload'
import type { CoreContext } from '../context.js'
import { getRegistry, isUuid } from '../registry.js'
import { relationId } from '../utils/relations.js'
import { requireTableName } from '../utils/schema.js'
import { runSql, sql } from '../utils/sql.js'

/**
 * A group takes its owner when it is created, as the original bundle's API
 * does (`POST /_/component_groups {reference, location, pages: [<page IRI>]}`,
 * or `layouts`, or `components`): the owner's componentGroups gets the group
 * in the same transaction, on every API (JSON-LD, Payload REST and GraphQL,
 * the admin panel, the Local API). The three properties are write-only
 * inputs (virtual fields, never stored on the group nor served): the owner's
 * own componentGroups stays the one place ownership is kept. They are JSON
 * inputs, not relationship fields, so that nothing that walks the stored
 * relationships (publishing's reference moves, the orphan scan, cache tags)
 * mistakes them for a stored link.
 */
export const OWNER_FIELDS = ['pages', 'layouts', 'components'] as const
type OwnerField = (typeof OWNER_FIELDS)[number]

interface Owner {
  field: OwnerField
  slug: string
  id: string
}

const WHAT: Record<OwnerField, string> = { pages: 'a page', layouts: 'a layout', components: 'a component' }

/** The write-only owner inputs of a group (components: only when the site has component types). */
export function groupOwnerFields(ctx: CoreContext): Field[] {
  const fields = ctx.componentSlugs.length > 0 ? OWNER_FIELDS : OWNER_FIELDS.filter((f) => f !== 'components')
  return fields.map((name): Field => ({
    name,
    type: 'json',
    virtual: true,
    admin: { hidden: true },
    custom: {
      cwa: {
        schema: {
          type: 'array',
          items: { type: 'string', format: 'iri-reference' },
          maxItems: 1,
          description: `On create only: the IRI of ${WHAT[name]} that owns the new group (its componentGroups gets it).`,
        },
      },
    },
  }))
}

const refuse = (errors: Array<{ path: string; message: string }>) => new ValidationError({ errors })

/**
 * The owners a write names, field by field (absent, null and [] name none):
 * IRIs (with or without the API prefix), or, as Payload's REST API names
 * relations, ids (pages, layouts) and {relationTo, value} (components).
 */
function ownersOf(req: PayloadRequest, data: Record<string, unknown> | undefined): Owner[] {
  const registry = getRegistry(req.payload.config)
  const owners: Owner[] = []
  const errors: Array<{ path: string; message: string }> = []
  for (const field of OWNER_FIELDS) {
    const value = data?.[field]
    if (value == null) continue
    const entries = Array.isArray(value) ? value : [value]
    entries.forEach((entry, index) => {
      const owner = ownerOf(registry, field, entry)
      if (owner) owners.push(owner)
      else errors.push({ path: `${field}[${index}]`, message: `This value should be the IRI of ${WHAT[field]}.` })
    })
  }
  if (errors.length > 0) throw refuse(errors)
  return owners
}

function ownerOf(registry: ReturnType<typeof getRegistry>, field: OwnerField, entry: unknown): Owner | null {
  if (field !== 'components' && isUuid(entry)) return { field, slug: field, id: entry.toLowerCase() }
  if (entry && typeof entry === 'object' && 'relationTo' in entry) {
    const { relationTo, value } = entry as { relationTo?: unknown; value?: unknown }
    const id = relationId(value)
    const resource = typeof relationTo === 'string' ? registry.bySlug(relationTo) : undefined
    return resource && isUuid(id) && fits(field, resource.slug, resource.meta.kind)
      ? { field, slug: resource.slug, id: id.toLowerCase() }
      : null
  }
  const parsed = typeof entry === 'string' ? registry.parseIri(entry) : null
  return parsed?.id && isUuid(parsed.id) && fits(field, parsed.resource.slug, parsed.resource.meta.kind)
    ? { field, slug: parsed.resource.slug, id: parsed.id.toLowerCase() }
    : null
}

const fits = (field: OwnerField, slug: string, kind: string) =>
  field === 'components' ? kind === 'component' : slug === field

/**
 * Before the group is written: one owner at most, and only on create (a
 * second one is a 422 naming its property); the owner exists; a reference
 * already used is a conflict naming the group that has it (409 when the
 * owner holds that group already: the same group created twice).
 */
export const groupOwnerBeforeChange =
  (_ctx: CoreContext): CollectionBeforeChangeHook =>
  async ({ data, operation, req }) => {
    const owners = ownersOf(req, data)
    if (owners.length === 0) return data
    if (operation !== 'create')
      throw refuse([
        {
          path: owners[0]!.field,
          message: "A group's owner is set when the group is created; change the owner's componentGroups to move it.",
        },
      ])
    if (owners.length > 1) {
      const [first, second] = owners as [Owner, Owner]
      throw refuse([
        {
          path: second.field,
          message:
            second.field === first.field
              ? `A group has one owner: name ${WHAT[second.field]}, not more.`
              : `A group has one owner: ${first.field} names it already.`,
        },
      ])
    }
    const owner = owners[0]!
    const registry = getRegistry(req.payload.config)
    const held = await ownerGroups(req, owner)
    if (!held) throw refuse([{ path: `${owner.field}[0]`, message: 'Item not found.' }])
    const reference = typeof data?.reference === 'string' ? data.reference : null
    const existing = reference ? await groupWithReference(req, reference) : null
    if (existing) {
      const groupIri = registry.itemIri('component_groups', existing)
      if (held.includes(existing))
        throw new APIError(
          `${registry.itemIri(owner.slug, owner.id)} has the component group ${groupIri} with reference "${reference}" already.`,
          409,
          null,
          true,
        )
      throw refuse([{ path: 'reference', message: `Value must be unique: the component group ${groupIri} has it.` }])
    }
    return data
  }

/**
 * Once the group exists (same transaction, so a refusal leaves no group):
 * a caller whose access is checked (every API but a trusted Local API call)
 * must see the owner (else it names nothing: 422, as any relation) and may
 * edit it (else 403); then the group joins the end of the owner's
 * componentGroups. The owner's row is locked first, so two groups created at
 * once for one owner both stay. The owner's write is an ordinary update (its
 * write event, its cache purges).
 */
export const groupOwnerAfterChange =
  (_ctx: CoreContext): CollectionAfterChangeHook =>
  async ({ data, doc, operation, overrideAccess, req }) => {
    if (operation !== 'create') return doc
    const owner = ownersOf(req, data)[0]
    if (!owner) return doc
    if (overrideAccess !== true) {
      if (!(await visible(req, owner))) throw refuse([{ path: `${owner.field}[0]`, message: 'Item not found.' }])
      if (!(await mayUpdate(req, owner))) throw new Forbidden(req.t)
    }
    await runSql(
      req.payload,
      sql`SELECT 1 FROM ${sql.identifier(requireTableName(req.payload, owner.slug))} WHERE id = ${owner.id}::uuid FOR UPDATE`,
      req,
    )
    const groups = (await ownerGroups(req, owner)) ?? []
    await req.payload.update({
      collection: owner.slug as CollectionSlug,
      id: owner.id,
      data: { componentGroups: [...groups, String(doc.id)] },
      depth: 0,
      // Checked above; an editor's write of a live component must not become a draft (publishable's state machine).
      overrideAccess: true,
      req,
    })
    return doc
  }

async function visible(req: PayloadRequest, owner: Owner): Promise<boolean> {
  const found = await req.payload.count({
    collection: owner.slug as CollectionSlug,
    where: { id: { equals: owner.id } },
    overrideAccess: false,
    req,
  })
  return found.totalDocs > 0
}

/** The owner's groups (ids, in order), or null when the owner does not exist. */
async function ownerGroups(req: PayloadRequest, owner: Owner): Promise<string[] | null> {
  const doc = (await req.payload
    .findByID({
      collection: owner.slug as CollectionSlug,
      id: owner.id,
      depth: 0,
      req,
      disableErrors: true,
      overrideAccess: true,
      select: { componentGroups: true },
    })
    .catch(() => null)) as { componentGroups?: unknown[] } | null
  if (!doc) return null
  return (doc.componentGroups ?? []).map((entry) => relationId(entry)).filter((id): id is string => id !== null)
}

async function groupWithReference(req: PayloadRequest, reference: string): Promise<string | null> {
  const found = await req.payload.find({
    collection: 'component_groups',
    where: { reference: { equals: reference } },
    depth: 0,
    limit: 1,
    pagination: false,
    overrideAccess: true,
    select: {},
    req,
  })
  return relationId(found.docs[0]) ?? null
}

/** Whether the caller may update the owner: its collection's update access, a row rule checked on the owner. */
async function mayUpdate(req: PayloadRequest, owner: Owner): Promise<boolean> {
  const collection = req.payload.collections[owner.slug as CollectionSlug]?.config
  if (!collection) return false
  const result: unknown = await executeAccess({ id: owner.id, req, disableErrors: true }, collection.access.update)
  if (result === true) return true
  if (!result) return false
  const count = await req.payload.count({
    collection: owner.slug as CollectionSlug,
    where: { and: [{ id: { equals: owner.id } }, result as Where] },
    overrideAccess: true,
    req,
  })
  return count.totalDocs > 0
}

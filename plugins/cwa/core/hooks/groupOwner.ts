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
import { getRegistry } from '../registry.js'
import { relationCollection, relationId } from '../utils/relations.js'
import { requireTableName } from '../utils/schema.js'
import { runSql, sql } from '../utils/sql.js'

/**
 * A group takes its owner when it is created, as the original bundle's API
 * does (`POST /_/component_groups {reference, location, pages: [<page IRI>]}`,
 * or `layouts`, or `components`): the owner's componentGroups gets the group
 * in the same transaction, on every API (JSON-LD, Payload REST and GraphQL,
 * the admin panel, the Local API). The three properties are write-only
 * inputs (virtual fields, never stored on the group nor served): the owner's
 * own componentGroups stays the one place ownership is kept.
 */
export const OWNER_FIELDS = ['pages', 'layouts', 'components'] as const
type OwnerField = (typeof OWNER_FIELDS)[number]

interface Owner {
  field: OwnerField
  slug: string
  id: string
}

/** The write-only owner inputs of a group (components: only when the site has component types). */
export function groupOwnerFields(ctx: CoreContext): Field[] {
  const hidden = { hidden: true, description: 'Set when the group is created: its owner.' }
  const fields: Field[] = [
    { name: 'pages', type: 'relationship', relationTo: 'pages', hasMany: true, virtual: true, admin: hidden },
    { name: 'layouts', type: 'relationship', relationTo: 'layouts', hasMany: true, virtual: true, admin: hidden },
  ]
  if (ctx.componentSlugs.length > 0)
    fields.push({
      name: 'components',
      type: 'relationship',
      relationTo: ctx.componentSlugs as CollectionSlug[],
      hasMany: true,
      virtual: true,
      admin: hidden,
    })
  return fields
}

const entriesOf = (value: unknown): unknown[] =>
  value == null ? [] : (Array.isArray(value) ? value : [value]).filter((entry) => relationId(entry) !== null)

/** The owners a write names, field by field (empty lists and null name none). */
function ownersOf(data: Record<string, unknown> | undefined): Owner[] {
  return OWNER_FIELDS.flatMap((field) =>
    entriesOf(data?.[field]).map((entry) => ({
      field,
      slug: field === 'components' ? (relationCollection(entry) ?? '') : field,
      id: relationId(entry)!,
    })),
  )
}

const refuse = (path: string, message: string) => new ValidationError({ errors: [{ path, message }] })

/**
 * Before the group is written: one owner at most, and only on create (a
 * second one is a 422 naming its property); the owner exists; a reference
 * already used is a conflict naming the group that has it (409 when the
 * owner holds that group already: the same group created twice).
 */
export const groupOwnerBeforeChange =
  (_ctx: CoreContext): CollectionBeforeChangeHook =>
  async ({ data, operation, req }) => {
    const owners = ownersOf(data)
    if (owners.length === 0) return data
    if (operation !== 'create')
      throw refuse(
        owners[0]!.field,
        "A group's owner is set when the group is created; change the owner's componentGroups to move it.",
      )
    if (owners.length > 1) {
      const second = owners[1]!
      throw refuse(
        second.field,
        second.field === owners[0]!.field
          ? `A group has one owner: name one ${second.field === 'components' ? 'component' : second.field.slice(0, -1)}.`
          : `A group has one owner: ${owners[0]!.field} names it already.`,
      )
    }
    const owner = owners[0]!
    const registry = getRegistry(req.payload.config)
    if (!registry.bySlug(owner.slug)) throw refuse(owner.field, 'This value is not a valid owner.')
    const ownerDoc = await ownerGroups(req, owner)
    if (!ownerDoc) throw refuse(owner.field, `Item not found for "${registry.itemIri(owner.slug, owner.id)}".`)
    const reference = typeof data?.reference === 'string' ? data.reference : null
    const existing = reference ? await groupWithReference(req, reference) : null
    if (existing) {
      const groupIri = registry.itemIri('component_groups', existing)
      if (ownerDoc.includes(existing))
        throw new APIError(
          `${registry.itemIri(owner.slug, owner.id)} has the component group ${groupIri} with reference "${reference}" already.`,
          409,
          null,
          true,
        )
      throw refuse('reference', `Value must be unique: the component group ${groupIri} has this reference.`)
    }
    return data
  }

/**
 * Once the group exists (same transaction): the caller must be allowed to
 * edit the owner (as for any other write of it: Payload's access, unless the
 * call overrides it), then the group joins the end of the owner's
 * componentGroups. The owner's row is locked first, so two groups created at
 * once for one owner both stay. The owner's write is an ordinary update (its
 * write event, its cache purges).
 */
export const groupOwnerAfterChange =
  (_ctx: CoreContext): CollectionAfterChangeHook =>
  async ({ data, doc, operation, overrideAccess, req }) => {
    if (operation !== 'create') return doc
    const owner = ownersOf(data)[0]
    if (!owner) return doc
    if (overrideAccess !== true && !(await mayUpdate(req, owner))) throw new Forbidden(req.t)
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

import { type PayloadRequest, ValidationError } from 'payload'
import { getRegistry } from '../registry.js'
import { columnNameOf, relsColumnOf, requireTableName } from '../utils/schema.js'
import { inTransaction, runSql, sql } from '../utils/sql.js'
import {
  groupWithReference,
  linkGroupToOwner,
  mayUpdate,
  type Owner,
  ownersOf,
  OWNER_FIELDS,
  visible,
} from './groupOwner.js'

const GROUPS = 'component_groups'

/**
 * A create that takes over an existing record instead of writing a new one,
 * run by the JSON-LD API's generic create (hydra/operations.ts) before it
 * writes anything: the id of the record taken over (answered 200 with it), or
 * null for an ordinary create. Only component groups have one (below).
 */
export async function adoptOnCreate(
  req: PayloadRequest,
  slug: string,
  data: Record<string, unknown>,
): Promise<string | null> {
  return adoptsOnCreate(slug) ? await adoptOwnerlessGroup(req, data) : null
}

/** Whether a create of this collection may take over an existing record (its API documentation lists the 200). */
export const adoptsOnCreate = (slug: string): boolean => slug === GROUPS

/**
 * Groups the CWA Nuxt module created before groups took their owner
 * (groupOwner.ts) belong to nobody: the API dropped `pages`, `layouts` and
 * `components` on create. The module posts such a group again at each page
 * load, the same way (`reference`, `location` = the owner's IRI, the owner in
 * `pages`, `layouts` or `components`); with its reference taken that POST
 * would be a 422 and the editor stuck. It adopts the group instead, when:
 * - the reference is the group's and the group has no owner at all;
 * - the POST's `location` and the group's own name the owner the POST names
 *   (the group was made for that owner);
 * - the caller sees the owner and may edit it.
 * The group joins the end of the owner's componentGroups in one transaction;
 * the group itself is not changed. Anything else is an ordinary create (a
 * taken reference keeps its 409 or 422). The group's row is locked (no key
 * update: a write linking it elsewhere is not held up), so two adoptions of
 * one group run one after the other and the second sees the first's owner.
 */
async function adoptOwnerlessGroup(req: PayloadRequest, data: Record<string, unknown>): Promise<string | null> {
  const reference = typeof data.reference === 'string' ? data.reference : null
  const owner = reference ? soleOwner(req, data) : null
  if (!reference || !owner || !names(req, data.location, owner)) return null
  const group = await groupWithReference(req, reference)
  if (!group) return null
  return await inTransaction(req, async () => {
    const location = columnNameOf(req.payload, GROUPS, 'location')
    if (!location) return null
    const rows = await runSql<{ location: string | null }>(
      req.payload,
      sql`SELECT ${sql.identifier(location)} AS location FROM ${sql.identifier(requireTableName(req.payload, GROUPS))}
        WHERE id = ${group}::uuid FOR NO KEY UPDATE`,
      req,
    )
    if (rows.length === 0 || !names(req, rows[0]!.location, owner)) return null
    if (await hasOwner(req, group)) return null
    if (!(await visible(req, owner)) || !(await mayUpdate(req, owner))) return null
    await linkGroupToOwner(req, owner, group)
    return group
  })
}

/** The one owner a create names; null for none, several or a malformed one (the create refuses those). */
function soleOwner(req: PayloadRequest, data: Record<string, unknown>): Owner | null {
  try {
    const owners = ownersOf(req, data)
    return owners.length === 1 ? owners[0]! : null
  } catch (error) {
    if (error instanceof ValidationError) return null
    throw error
  }
}

/** Whether an IRI (with or without the API prefix) names the owner. */
function names(req: PayloadRequest, iri: unknown, owner: Owner): boolean {
  const parsed = getRegistry(req.payload.config).parseIri(iri)
  return parsed?.resource.slug === owner.slug && parsed.id?.toLowerCase() === owner.id
}

/** Whether any page, layout or component lists the group in its componentGroups (one statement). */
async function hasOwner(req: PayloadRequest, group: string): Promise<boolean> {
  const registry = getRegistry(req.payload.config)
  const slugs = [...OWNER_FIELDS.filter((f) => f !== 'components'), ...registry.ofKind('component').map((r) => r.slug)]
  const branches = slugs.flatMap((slug) => {
    const rels = relsColumnOf(req.payload, slug, GROUPS)
    return rels
      ? [
          sql`SELECT 1 FROM ${sql.identifier(rels.table)} WHERE path = 'componentGroups' AND ${sql.identifier(rels.column)} = ${group}::uuid`,
        ]
      : []
  })
  if (branches.length === 0) return false
  const rows = await runSql<{ held: boolean }>(
    req.payload,
    sql`SELECT EXISTS (${sql.join(branches, sql` UNION ALL `)}) AS held`,
    req,
  )
  return rows[0]?.held === true
}

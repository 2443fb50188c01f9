import type { PayloadRequest, Where } from 'payload'
import { getRegistry } from '../../core/registry.js'
import { columnNameOf, relsColumnOf, tableNameOf } from '../../core/utils/schema.js'
import { beforeCommit } from '../../core/transactions/index.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { relationCollection, relationId } from '../../core/utils/relations.js'
import { isPublished, publishableOf } from '../publishable/index.js'
import { fallbackTitle } from './derive.js'

export const POSITIONS = 'component_positions'
export const GROUPS = 'component_groups'
export const TITLE_FIELD = 'adminTitle'

type Doc = Record<string, unknown>

/** A component as a hook already holds it (saves reading it again for each position). */
export interface KnownComponent {
  slug: string
  doc: Doc
}

/**
 * The title of a component as anyone who may read a position may see it:
 * its own title when it is public (published, or of a type without
 * drafts), else its type and short id, so a position's title never shows a
 * draft's content (positions are public, drafts are not).
 */
async function publicComponentTitle(
  req: PayloadRequest,
  slug: string,
  id: string,
  known?: KnownComponent,
): Promise<string> {
  const resource = getRegistry(req.payload.config).bySlug(slug)
  const label = resource
    ? String((resource.collection.labels as { singular?: unknown } | undefined)?.singular ?? resource.meta.shortName)
    : slug
  const doc =
    known && known.slug === slug && String(known.doc.id) === id
      ? known.doc
      : ((await req.payload
          .findByID({ collection: slug, id, depth: 0, req, disableErrors: true })
          .catch(() => null)) as Doc | null)
  if (!doc) return fallbackTitle(label, id)
  const publishable = resource ? publishableOf(resource) : null
  if (publishable && !isPublished(doc, publishable)) return fallbackTitle(label, id)
  const own = typeof doc[TITLE_FIELD] === 'string' && doc[TITLE_FIELD] ? (doc[TITLE_FIELD] as string) : null
  return own ?? fallbackTitle(label, id)
}

/**
 * Group references read in this request, by id: a page's positions share a
 * few groups, and a publish of fifty blocks would read the same group fifty
 * times. Forgotten when a group changes (forgetGroups).
 */
const groupReferences = new WeakMap<object, Map<string, Promise<string | null>>>()

export const forgetGroups = (req: PayloadRequest): void => void groupReferences.delete(req)

function groupReference(req: PayloadRequest, id: string): Promise<string | null> {
  let known = groupReferences.get(req)
  if (!known) groupReferences.set(req, (known = new Map()))
  let reference = known.get(id)
  if (!reference) {
    reference = req.payload
      .findByID({
        collection: GROUPS,
        id,
        depth: 0,
        req,
        disableErrors: true,
        select: { reference: true },
      })
      .then((group) => ((group as Doc | null)?.reference as string | undefined) ?? null)
      .catch(() => null)
    known.set(id, reference)
  }
  return reference
}

/** "group › component": the group's reference, then what the position shows (a component, a page data property, or nothing). */
export async function positionTitle(req: PayloadRequest, position: Doc, known?: KnownComponent): Promise<string> {
  const groupId = relationId(position.componentGroup)
  const reference = groupId ? await groupReference(req, groupId) : null
  const groupName = typeof reference === 'string' ? reference : '(no group)'
  const componentId = relationId(position.component)
  const componentSlug = componentId ? relationCollection(position.component) : null
  if (componentId && componentSlug)
    return `${groupName} › ${await publicComponentTitle(req, componentSlug, componentId, known)}`
  if (position.pageDataProperty)
    return `${groupName} › ${String(position.pageDataClass ?? '')}.${String(position.pageDataProperty)} (page data)`
  return `${groupName} › (empty: no component, no page data property)`
}

/**
 * Recomputes the stored titles of the positions matching `where` (after a
 * component's title or publication, or a group's reference, changed). Written
 * in the request's transaction, beside Payload's hooks: a title is no content
 * change, so no position hook, write event or cache purge follows, and the
 * position's version (updatedAt, what an editor's If-Match names) stays.
 */
export async function refreshPositionTitles(req: PayloadRequest, where: Where, known?: KnownComponent): Promise<void> {
  const { docs } = await req.payload.find({
    collection: POSITIONS,
    where,
    depth: 0,
    limit: 0,
    pagination: false,
    req,
  })
  for (const position of docs as Doc[]) {
    const title = await positionTitle(req, position, known)
    if (title === position[TITLE_FIELD]) continue
    await storeTitle(req, String(position.id), title)
  }
}

/**
 * The titles of the positions holding components whose title or publication
 * changed, once per transaction just before it commits (a page publish
 * changes fifty blocks: two statements per type, not two per block): one
 * query per type finds their positions (with group and stored title), one
 * statement writes the titles that moved.
 */
export async function refreshComponentPositions(req: PayloadRequest, component: KnownComponent): Promise<void> {
  await beforeCommit(req, 'adminTitles:positions', component, (components) => refreshMany(req, components))
}

async function refreshMany(req: PayloadRequest, components: KnownComponent[]): Promise<void> {
  // The last state of each component in the transaction.
  const latest = new Map(components.map((c) => [`${c.slug}:${String(c.doc.id)}`, c]))
  const bySlug = new Map<string, KnownComponent[]>()
  for (const c of latest.values()) bySlug.set(c.slug, [...(bySlug.get(c.slug) ?? []), c])
  const table = tableNameOf(req.payload, POSITIONS)
  const group = columnNameOf(req.payload, POSITIONS, 'componentGroup')
  const title = columnNameOf(req.payload, POSITIONS, TITLE_FIELD)
  const changed: Array<{ id: string; title: string }> = []
  for (const [slug, list] of bySlug) {
    const rels = relsColumnOf(req.payload, POSITIONS, slug)
    if (!table || !rels || !group || !title) {
      for (const c of list) await refreshPositionTitles(req, { 'component.value': { equals: c.doc.id } }, c)
      continue
    }
    const ids = list.map((c) => String(c.doc.id))
    const rows = await runSql<{ id: string; grp: string | null; title: string | null; component: string }>(
      req.payload,
      sql`SELECT p.id::text AS id, p.${sql.identifier(group)}::text AS grp, p.${sql.identifier(title)} AS title,
          r.${sql.identifier(rels.column)}::text AS component
        FROM ${sql.identifier(table)} p JOIN ${sql.identifier(rels.table)} r ON r.parent_id = p.id AND r.path = 'component'
        WHERE r.${sql.identifier(rels.column)} = ANY(${sql.param(ids)})`,
      req,
    )
    for (const row of rows) {
      const known = latest.get(`${slug}:${row.component}`)
      const next = await positionTitle(
        req,
        { componentGroup: row.grp, component: { relationTo: slug, value: row.component } },
        known,
      )
      if (next !== row.title) changed.push({ id: row.id, title: next })
    }
  }
  if (changed.length === 0) return
  if (!table || !title) {
    for (const row of changed) await storeTitle(req, row.id, row.title)
    return
  }
  const values = sql.join(
    changed.map((row) => sql`(${row.id}::uuid, ${row.title}::text)`),
    sql`, `,
  )
  await runSql(
    req.payload,
    sql`UPDATE ${sql.identifier(table)} AS t SET ${sql.identifier(title)} = v.title FROM (VALUES ${values}) AS v(id, title) WHERE t.id = v.id`,
    req,
  )
}

async function storeTitle(req: PayloadRequest, id: string, title: string): Promise<void> {
  const table = tableNameOf(req.payload, POSITIONS)
  const column = columnNameOf(req.payload, POSITIONS, TITLE_FIELD)
  if (table && column) {
    await runSql(
      req.payload,
      sql`UPDATE ${sql.identifier(table)} SET ${sql.identifier(column)} = ${title} WHERE id = ${id}`,
      req,
    )
    return
  }
  // A schema the adapter does not name (never for Payload's own): through the adapter.
  await req.payload.db.updateOne({ collection: POSITIONS, id, data: { [TITLE_FIELD]: title }, req })
}

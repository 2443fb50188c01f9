import type { CollectionSlug, Payload, PayloadRequest } from 'payload'
import { runSql, sql, type Sql } from '../../core/utils/sql.js'
import { addTo, type DeleteSet, has, idsOf, type RecordRef } from './cascadeSet.js'
import {
  groupOwnersSql,
  ownedGroupsSql,
  pageDataComponentsSql,
  pageDataHoldersSql,
  positionsOfComponentsSql,
  positionsOfGroupsSql,
} from './cascadeSql.js'
import { GROUP, id, structureOf, type Structure, uuidList } from './structure.js'

export type { DeleteSet, RecordRef } from './cascadeSet.js'

const GROUPS = 'component_groups'
const POSITIONS = 'component_positions'

/**
 * The contract's cascade (orphan delete rule 5), from `roots`:
 *
 * - a group takes its positions and every component in them used nowhere else;
 * - a component takes the groups it owns, recursively, unless an owner not
 *   being deleted also has them, and the positions that held it (a position
 *   bound to a page data property stays: it still renders that property);
 * - a published component takes its draft, unless the draft is itself placed
 *   or held by page data, or the published one is in `keepDraftsOf` (an API
 *   DELETE of the published record itself: the state machine keeps the
 *   draft, which has taken over its positions);
 * - a page or layout takes its groups, page data the components of its
 *   properties, the same way.
 *
 * "Used elsewhere" means a position or a page data property outside the
 * set. The set only grows, so this runs to a fixed point: a few queries per
 * level of nesting, whatever the number of records. Reads run in the
 * request's transaction.
 */
export async function cascadeOf(
  payload: Payload,
  req: PayloadRequest,
  roots: RecordRef[],
  keepDraftsOf: ReadonlySet<string> = new Set(),
): Promise<DeleteSet> {
  const structure = structureOf(payload)
  const taken: DeleteSet = new Map()
  let frontier: DeleteSet = new Map()
  for (const root of roots) if (addTo(taken, root.slug, root.id)) addTo(frontier, root.slug, root.id)
  const q = <T>(query: Sql) => runSql<T>(payload, query, req)
  const componentSlugs = new Set(structure.components.map((c) => c.slug))
  const pageDataSlugs = new Set(structure.pageData.map((p) => p.slug))

  while (frontier.size > 0) {
    const next: DeleteSet = new Map()
    const take = (slug: string, recordId: string) => {
      if (addTo(taken, slug, recordId)) addTo(next, slug, recordId)
    }

    // Groups owned by what is being deleted: taken when every owner is.
    const candidateGroups = await q<{ id: string }>(ownedGroupsSql(structure, frontier)).then((rows) =>
      [...new Set(rows.map((r) => r.id))].filter((g) => !has(taken, GROUPS, g)),
    )
    if (candidateGroups.length > 0) {
      const owners = await q<{ kind: string; owner: string; grp: string }>(groupOwnersSql(structure, candidateGroups))
      const keep = new Set(owners.filter((o) => !has(taken, o.kind, o.owner)).map((o) => o.grp))
      for (const g of candidateGroups) if (!keep.has(g)) take(GROUPS, g)
    }

    // Positions of groups being deleted; their components become candidates.
    const candidates = new Map<string, string>() // component id -> slug
    const groupIds = idsOf(next, GROUPS).concat(idsOf(frontier, GROUPS))
    if (groupIds.length > 0 && structure.positionRels !== null) {
      for (const row of await q<{ id: string; kind: string | null; component: string | null }>(
        positionsOfGroupsSql(structure, groupIds),
      )) {
        take(POSITIONS, row.id)
        if (row.component && row.kind) candidates.set(row.component, row.kind)
      }
    }

    // Components held by page data being deleted.
    const pageDataFrontier = [...frontier.keys()].filter((slug) => pageDataSlugs.has(slug))
    if (pageDataFrontier.length > 0) {
      const query = pageDataComponentsSql(structure, frontier)
      if (query)
        for (const row of await q<{ kind: string; component: string }>(query)) candidates.set(row.component, row.kind)
    }

    // Drafts of published components being deleted.
    const publishedFrontier = structure.components.filter((c) => c.twinColumn && frontier.has(c.slug))
    if (publishedFrontier.length > 0) {
      const query = sql.join(
        publishedFrontier.map(
          (c) =>
            sql`SELECT ${c.slug}::text AS kind, d.id::text AS component FROM ${id(c.table)} d WHERE d.${id(c.twinColumn!)} IN ${uuidList(idsOf(frontier, c.slug).filter((p) => !keepDraftsOf.has(p)))}`,
        ),
        sql` UNION ALL `,
      )
      for (const row of await q<{ kind: string; component: string }>(query)) candidates.set(row.component, row.kind)
    }

    // A candidate component goes when nothing outside the set uses it.
    const open = [...candidates].filter(([component, kind]) => !has(taken, kind, component))
    if (open.length > 0) {
      const ids = open.map(([component]) => component)
      const used = new Set<string>()
      for (const row of await q<{ position: string; component: string }>(positionsOfComponentsSql(structure, ids))) {
        if (!has(taken, POSITIONS, row.position)) used.add(row.component)
      }
      const holders = pageDataHoldersSql(structure, ids)
      if (holders) {
        for (const row of await q<{ kind: string; holder: string; component: string }>(holders)) {
          if (!has(taken, row.kind, row.holder)) used.add(row.component)
        }
      }
      for (const [component, kind] of open) if (!used.has(component)) take(kind, component)
    }

    // Positions that held a component being deleted (unless bound to a page data property).
    const componentIds = [...next.keys(), ...frontier.keys()]
      .filter((slug) => componentSlugs.has(slug))
      .flatMap((slug) => idsOf(next, slug).concat(idsOf(frontier, slug)))
    if (componentIds.length > 0 && structure.positionRels !== null) {
      for (const row of await q<{ position: string; bound: boolean }>(
        positionsOfComponentsSql(structure, componentIds),
      )) {
        if (!row.bound) take(POSITIONS, row.position)
      }
    }
    frontier = next
  }
  return taken
}

/** Context key: the records a cascade in progress deletes (their own delete hooks then do nothing more). */
export const CASCADE_CONTEXT = 'cwaCascade'

/** The order deletes run in: what refers to a record goes before it. */
function deleteOrder(slugs: string[], structure: Structure): string[] {
  const rank = (slug: string) =>
    slug === POSITIONS
      ? 0
      : structure.components.some((c) => c.slug === slug)
        ? 1
        : slug === GROUPS
          ? 2
          : structure.pageData.some((p) => p.slug === slug)
            ? 3
            : slug === 'pages'
              ? 4
              : 5
  return [...slugs].sort((a, b) => rank(a) - rank(b))
}

/**
 * Deletes every record of `set` but `except` through the Local API in the
 * request's transaction (so every collection's own delete hooks run: files,
 * write events...), positions first, groups after their owners' components.
 */
export async function deleteSet(
  payload: Payload,
  req: PayloadRequest,
  set: DeleteSet,
  except: ReadonlySet<string> = new Set(),
): Promise<void> {
  const structure = structureOf(payload)
  const context = req.context as Record<string, unknown>
  const marked = (context[CASCADE_CONTEXT] as Set<string> | undefined) ?? new Set<string>()
  for (const [slug, ids] of set) for (const recordId of ids) marked.add(`${slug}:${recordId}`)
  context[CASCADE_CONTEXT] = marked
  for (const slug of deleteOrder([...set.keys()], structure)) {
    const ids = idsOf(set, slug).filter((recordId) => !except.has(`${slug}:${recordId}`))
    if (ids.length === 0) continue
    const result = await payload.delete({
      collection: slug as CollectionSlug,
      where: { id: { in: ids } },
      depth: 0,
      overrideAccess: true,
      req,
      context: req.context,
    })
    if (result.errors.length > 0) {
      throw new Error(
        `Cascade delete of ${slug} failed: ${result.errors.map((e) => `${e.id}: ${e.message}`).join('; ')}`,
      )
    }
  }
}

/** Whether a record is being deleted by a cascade in progress on this request. */
export function inCascade(req: PayloadRequest, slug: string, recordId: string): boolean {
  const marked = (req.context as Record<string, unknown> | undefined)?.[CASCADE_CONTEXT] as Set<string> | undefined
  return marked?.has(`${slug}:${recordId}`) ?? false
}

export { GROUP }

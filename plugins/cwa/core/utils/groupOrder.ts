import type { PayloadRequest } from 'payload'
import { emitWriteEvent } from '../events/index.js'
import { columnNameOf, requireTableName } from './schema.js'
import { runSql, sql, type SqlChunk } from './sql.js'

/**
 * The order of the positions of a group: every position of a group holds a
 * sortValue of its own, as in the original bundle (its
 * ComponentPositionSortValueHelper), on every API and in the page builder:
 * - a new position at a taken value goes there, and the holder and every
 *   position after it move up by one (a free value: nothing moves); with no
 *   value it goes after the last;
 * - a position moved within its group from `from` to `to` takes `to`, and
 *   the positions between shift by one toward the gap it left
 *   (`to < from`: those in [to, from) move up; `to > from`: those in
 *   (from, to] move down), so no gap opens and no value is shared;
 * - a position moved to another group is inserted there as a new one (the
 *   gap it leaves in its old group stays, as a delete's does).
 * A group that holds a shared value (rows written before this rule) is first
 * numbered 0, 1, 2... in its current order (sortValue, then creation).
 * Each shift is one statement in the write's transaction, under a lock of
 * the group held to its end: concurrent writes to one group run one after
 * the other, each on the order the one before committed. Every position a
 * statement changes is a write event (read model, cache purge, hub).
 */

const POSITIONS = 'component_positions'

interface Names {
  table: SqlChunk
  group: SqlChunk
  sort: SqlChunk
  created: SqlChunk
  updated: SqlChunk
}

function namesOf(req: PayloadRequest): Names {
  const column = (field: string) => {
    const name = columnNameOf(req.payload, POSITIONS, field)
    if (!name) throw new Error(`No column for component_positions.${field} in the database adapter`)
    return sql.identifier(name)
  }
  return {
    table: sql.identifier(requireTableName(req.payload, POSITIONS)),
    group: column('componentGroup'),
    sort: column('sortValue'),
    created: column('createdAt'),
    updated: column('updatedAt'),
  }
}

/** Serialises the order writes of these groups until the transaction ends (advisory locks, always taken in one order). */
export async function lockGroupOrder(req: PayloadRequest, groupIds: ReadonlyArray<string | null>): Promise<void> {
  const ids = [...new Set(groupIds.filter((id): id is string => Boolean(id)))].sort()
  for (const id of ids)
    await runSql(
      req.payload,
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`cwa:component_group_order:${id}`}, 0))`,
      req,
    )
}

/** The group a position is in now (read in the request's transaction), or null. */
export async function groupOfPosition(req: PayloadRequest, id: string): Promise<string | null> {
  const n = namesOf(req)
  const rows = await runSql<{ group: string | null }>(
    req.payload,
    sql`SELECT ${n.group} AS "group" FROM ${n.table} WHERE id = ${id}::uuid`,
    req,
  )
  return rows[0]?.group ?? null
}

async function announce(req: PayloadRequest, rows: Array<{ id: string }>, except: string | null): Promise<void> {
  for (const { id } of rows) if (id !== except) await emitWriteEvent(req, { type: 'update', collection: POSITIONS, id })
}

/** Numbers a group that holds a shared value 0, 1, 2... in its current order; nothing otherwise (one statement). Whether it did. */
async function separateTies(req: PayloadRequest, n: Names, group: string, except: string | null): Promise<boolean> {
  const rows = await runSql<{ id: string }>(
    req.payload,
    sql`WITH ranked AS (
        SELECT id, row_number() OVER (ORDER BY ${n.sort}, ${n.created}, id) - 1 AS rank
        FROM ${n.table} WHERE ${n.group} = ${group}::uuid
      )
      UPDATE ${n.table} p SET ${n.sort} = r.rank, ${n.updated} = now()
      FROM ranked r
      WHERE p.id = r.id AND p.${n.sort} <> r.rank
        AND EXISTS (SELECT 1 FROM ${n.table} WHERE ${n.group} = ${group}::uuid GROUP BY ${n.sort} HAVING count(*) > 1)
      RETURNING p.id`,
    req,
  )
  await announce(req, rows, except)
  return rows.length > 0
}

export interface Placement {
  /** The position written (null: a new one). */
  id: string | null
  /** The group it is in after the write. */
  group: string
  /** The value sent, or null (a new one: after the last). */
  sortValue: number | null
  /**
   * Whether the write asks for a place: false when an update sends the value
   * it read (Payload fills in the stored value when none is sent), which keeps
   * the place the position holds now, unless its group was just numbered
   * apart from a shared value (the value sent then names a place in that order).
   */
  move: boolean
}

/**
 * Makes room for a position about to be written and answers the sortValue it
 * takes (the rule above). Call under lockGroupOrder of its group and, for a
 * move between groups, of the group it leaves.
 */
export async function placePosition(req: PayloadRequest, { id, group, sortValue, move }: Placement): Promise<number> {
  const n = namesOf(req)
  const renumbered = await separateTies(req, n, group, id)
  const requested = move || renumbered ? sortValue : null
  const current = id
    ? (
        await runSql<{ group: string | null; sort: string | number }>(
          req.payload,
          sql`SELECT ${n.group} AS "group", ${n.sort} AS sort FROM ${n.table} WHERE id = ${id}::uuid`,
          req,
        )
      )[0]
    : undefined
  const from = current && current.group === group ? Number(current.sort) : null
  if (from !== null) {
    if (requested === null || requested === from) return from
    const rows = await runSql<{ id: string }>(
      req.payload,
      requested < from
        ? sql`UPDATE ${n.table} SET ${n.sort} = ${n.sort} + 1, ${n.updated} = now()
            WHERE ${n.group} = ${group}::uuid AND id <> ${id}::uuid AND ${n.sort} >= ${requested} AND ${n.sort} < ${from}
            RETURNING id`
        : sql`UPDATE ${n.table} SET ${n.sort} = ${n.sort} - 1, ${n.updated} = now()
            WHERE ${n.group} = ${group}::uuid AND id <> ${id}::uuid AND ${n.sort} > ${from} AND ${n.sort} <= ${requested}
            RETURNING id`,
      req,
    )
    await announce(req, rows, id)
    return requested
  }
  // New to the group (a create, or a move from another group).
  const self = id ?? '00000000-0000-0000-0000-000000000000'
  const target = requested ?? (current ? Number(current.sort) : null)
  if (target === null) {
    const rows = await runSql<{ next: string | number }>(
      req.payload,
      sql`SELECT coalesce(max(${n.sort}) + 1, 0) AS next FROM ${n.table} WHERE ${n.group} = ${group}::uuid AND id <> ${self}::uuid`,
      req,
    )
    return Number(rows[0]?.next ?? 0)
  }
  const rows = await runSql<{ id: string }>(
    req.payload,
    sql`UPDATE ${n.table} SET ${n.sort} = ${n.sort} + 1, ${n.updated} = now()
      WHERE ${n.group} = ${group}::uuid AND id <> ${self}::uuid AND ${n.sort} >= ${target}
        AND EXISTS (SELECT 1 FROM ${n.table} WHERE ${n.group} = ${group}::uuid AND id <> ${self}::uuid AND ${n.sort} = ${target})
      RETURNING id`,
    req,
  )
  await announce(req, rows, id)
  return target
}

/**
 * Gives a group's positions the values 0, 1, 2... in the order listed (the
 * page builder's drag): one statement writing only the values that change,
 * each changed position a write event. Call under lockGroupOrder.
 */
export async function writeGroupOrder(req: PayloadRequest, group: string, ids: readonly string[]): Promise<void> {
  const n = namesOf(req)
  const rows = await runSql<{ id: string }>(
    req.payload,
    sql`UPDATE ${n.table} p SET ${n.sort} = o.ord - 1, ${n.updated} = now()
      FROM unnest(${sql.param([...ids])}::uuid[]) WITH ORDINALITY AS o(id, ord)
      WHERE p.id = o.id AND p.${n.group} = ${group}::uuid AND p.${n.sort} IS DISTINCT FROM o.ord - 1
      RETURNING p.id`,
    req,
  )
  await announce(req, rows, null)
}

import { type CollectionBeforeDeleteHook, type Payload, type PayloadRequest, ValidationError } from 'payload'
import { getRegistry } from '../../core/registry.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { columnNameOf } from '../../core/utils/schema.js'
import { draftTakesOver, isHandover } from '../publishable/index.js'
import { cascadeOf, deleteSet, inCascade } from './cascade.js'
import { id, structureOf, uuidList } from './structure.js'

/**
 * A delete that would leave a required reference dangling (pages on a
 * deleted layout, page data on a deleted template page): 422 on every API
 * (a violation on the JSON-LD API, Payload's error list on /api), naming
 * what still uses the record. Nothing is deleted.
 */
export class InUseError extends ValidationError {
  constructor(path: string, message: string) {
    super({ errors: [{ path, message }] })
    this.status = 422
    this.name = 'ValidationError'
  }
}

const MAX_NAMED = 10

function usedBy(kind: string, iris: string[], advice: string): string {
  const named = iris.slice(0, MAX_NAMED).join(', ')
  const more = iris.length > MAX_NAMED ? ` and ${iris.length - MAX_NAMED} more` : ''
  return `This ${kind} is still used by ${iris.length} record(s): ${named}${more}. ${advice}`
}

/** Refuses to delete a layout pages still use, or a template page page data still uses. */
async function assertNotRequired(payload: Payload, req: PayloadRequest, slug: string, recordId: string): Promise<void> {
  const structure = structureOf(payload)
  const registry = getRegistry(payload.config)
  if (slug === 'layouts') {
    const rows = await runSql<{ id: string }>(
      payload,
      sql`SELECT id::text FROM ${id(structure.pages)} WHERE ${id(structure.pageLayoutColumn)} IN ${uuidList([recordId])} ORDER BY id`,
      req,
    )
    const users = rows.filter((row) => !inCascade(req, 'pages', row.id))
    if (users.length > 0) {
      throw new InUseError(
        'pages',
        usedBy(
          'layout',
          users.map((row) => registry.itemIri('pages', row.id)),
          'Give those pages another layout or delete them first.',
        ),
      )
    }
  }
  if (slug === 'pages') {
    const branches = structure.pageData.flatMap((table) => {
      const column = columnNameOf(payload, table.slug, 'page')
      return column
        ? [
            sql`SELECT ${table.slug}::text AS kind, id::text AS id FROM ${id(table.table)} WHERE ${id(column)} IN ${uuidList([recordId])}`,
          ]
        : []
    })
    if (branches.length === 0) return
    const rows = await runSql<{ kind: string; id: string }>(
      payload,
      sql`${sql.join(branches, sql` UNION ALL `)} ORDER BY 1, 2`,
      req,
    )
    const users = rows.filter((row) => !inCascade(req, row.kind, row.id))
    if (users.length > 0) {
      throw new InUseError(
        'pageData',
        usedBy(
          'template page',
          users.map((row) => registry.itemIri(row.kind, row.id)),
          'Point that page data at another template page or delete it first.',
        ),
      )
    }
  }
}

/**
 * The cascade of a DELETE by any API (JSON-LD, Payload REST, admin, Local
 * API), in the deleting transaction, before the record itself goes: see
 * cascadeOf. A record a cascade in progress deletes does nothing more (the
 * cascade computed everything once), nor does a draft a publication deletes
 * after handing its content (and what it owned) to its published twin.
 */
export function cascadeBeforeDelete(slug: string, kind: 'component' | 'other'): CollectionBeforeDeleteHook {
  return async ({ req, id: recordId }) => {
    const rootId = String(recordId)
    // A cascade in progress computed everything once; a publication's handover removes the draft row alone.
    if (inCascade(req, slug, rootId) || isHandover(req, slug, rootId)) return
    const payload = req.payload
    await assertNotRequired(payload, req, slug, rootId)
    // A published component deleted itself: its draft takes over (the state machine) and stays.
    if (kind === 'component') await draftTakesOver(payload, req, slug, rootId)
    const set = await cascadeOf(
      payload,
      req,
      [{ slug, id: rootId }],
      kind === 'component' ? new Set([rootId]) : new Set(),
    )
    await deleteSet(payload, req, set, new Set([`${slug}:${rootId}`]))
  }
}

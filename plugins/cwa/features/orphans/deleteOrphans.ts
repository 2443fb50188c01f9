import type { CollectionSlug, Payload, PayloadRequest } from 'payload'
import { getRegistry } from '../../core/registry.js'
import { inTransaction, runSql, sql } from '../../core/utils/sql.js'
import { cascadeOf, deleteSet, type DeleteSet, type RecordRef } from './cascade.js'
import { storeReport } from './report.js'
import { type OrphanScan, scanIris, scanOrphans } from './scan.js'
import { id, structureOf, uuidList } from './structure.js'

export interface OrphanDeleteResult {
  deleted: { componentGroups: string[]; componentPositions: string[]; components: string[] }
  rejected: Array<{ iri: string; reason: 'not_orphaned' | 'not_found' }>
}

const orphanKeys = (scan: OrphanScan): Set<string> =>
  new Set([
    ...scan.componentGroups.map((g) => `component_groups:${g}`),
    ...scan.componentPositions.map((p) => `component_positions:${p}`),
    ...scan.components.map((c) => `${c.slug}:${c.id}`),
  ])

const refOfKey = (key: string): RecordRef => {
  const colon = key.indexOf(':')
  return { slug: key.slice(0, colon), id: key.slice(colon + 1) }
}

/**
 * Row locks on the candidates before the fresh scan: a placement of one of
 * them committed meanwhile is then seen by the scan (the component is no
 * longer an orphan and stays), and one still to come waits for this delete
 * (its foreign key then finds the component gone and fails): a component is
 * never deleted from under a placement.
 */
async function lockCandidates(payload: Payload, req: PayloadRequest, keys: string[]): Promise<void> {
  const structure = structureOf(payload)
  const bySlug = new Map<string, string[]>()
  for (const key of keys) {
    const ref = refOfKey(key)
    bySlug.set(ref.slug, [...(bySlug.get(ref.slug) ?? []), ref.id])
  }
  const tables = new Map<string, string>([
    ['component_groups', structure.groups],
    ['component_positions', structure.positions],
    ...structure.components.map((c) => [c.slug, c.table] as [string, string]),
  ])
  for (const [slug, ids] of bySlug) {
    const table = tables.get(slug)
    if (table)
      await runSql(payload, sql`SELECT id FROM ${id(table)} WHERE id IN ${uuidList(ids)} ORDER BY id FOR UPDATE`, req)
  }
}

/** Which of the parsed records exist (any collection of the registry). */
async function existing(payload: Payload, req: PayloadRequest, refs: RecordRef[]): Promise<Set<string>> {
  const found = new Set<string>()
  const bySlug = new Map<string, string[]>()
  for (const ref of refs) bySlug.set(ref.slug, [...(bySlug.get(ref.slug) ?? []), ref.id])
  for (const [slug, ids] of bySlug) {
    const result = await payload.find({
      collection: slug as CollectionSlug,
      where: { id: { in: ids } },
      depth: 0,
      pagination: false,
      overrideAccess: true,
      select: {},
      req,
    })
    for (const doc of result.docs) found.add(`${slug}:${String(doc.id)}`)
  }
  return found
}

/**
 * POST /_/orphaned_resources/delete (delete rules 1-5), in one transaction:
 * a fresh scan, the requested orphans deleted with their cascade, the
 * refused IRIs with their reason, and the stored report refreshed. Nothing
 * is e-mailed. The deletes go through the Local API, so every collection's
 * delete hooks (write events, files) run as for any other delete.
 */
export async function deleteOrphans(
  payload: Payload,
  req: PayloadRequest,
  request: { iris: string[] } | { all: true },
): Promise<OrphanDeleteResult> {
  const registry = getRegistry(payload.config)
  return inTransaction(req, async () => {
    const first = orphanKeys(await scanOrphans(payload, req))
    const rejected: OrphanDeleteResult['rejected'] = []
    const requested: Array<{ iri: string; key: string | null }> = []
    if ('iris' in request) {
      for (const iri of request.iris) {
        const parsed = registry.parseIri(iri)
        requested.push({ iri, key: parsed?.id ? `${parsed.resource.slug}:${parsed.id}` : null })
      }
    }
    const wanted =
      'all' in request ? [...first] : [...new Set(requested.flatMap((r) => (r.key && first.has(r.key) ? [r.key] : [])))]
    await lockCandidates(payload, req, wanted)
    const fresh = orphanKeys(await scanOrphans(payload, req))
    const roots = wanted.filter((key) => fresh.has(key)).map(refOfKey)

    if ('iris' in request) {
      const rootKeys = new Set(roots.map((r) => `${r.slug}:${r.id}`))
      const refused = requested.filter((r) => !r.key || !rootKeys.has(r.key))
      const present = await existing(
        payload,
        req,
        refused.flatMap((r) => (r.key ? [refOfKey(r.key)] : [])),
      )
      const seen = new Set<string>()
      for (const r of refused) {
        if (seen.has(r.iri)) continue
        seen.add(r.iri)
        rejected.push({ iri: r.iri, reason: r.key && present.has(r.key) ? 'not_orphaned' : 'not_found' })
      }
    }

    const set: DeleteSet = roots.length > 0 ? await cascadeOf(payload, req, roots) : new Map()
    if (set.size > 0) await deleteSet(payload, req, set)
    await storeReport(payload, 'latest', scanIris(payload, await scanOrphans(payload, req)), req)
    return { deleted: listDeleted(payload, set), rejected }
  })
}

function listDeleted(payload: Payload, set: DeleteSet): OrphanDeleteResult['deleted'] {
  const registry = getRegistry(payload.config)
  const structure = structureOf(payload)
  const iris = (slug: string) => [...(set.get(slug) ?? [])].map((recordId) => registry.itemIri(slug, recordId))
  return {
    componentGroups: iris('component_groups'),
    componentPositions: iris('component_positions'),
    components: structure.components.flatMap((c) => iris(c.slug)),
  }
}

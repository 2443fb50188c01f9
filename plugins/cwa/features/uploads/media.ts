import type { HydraContext } from '../../hydra/context.js'
import type { Resource } from '../../core/registry.js'
import { filtersOf } from './fields.js'
import { type FileInfo, infoFor } from './info.js'
import type { ResolvedField } from './options.js'
import { isRaster } from './sniff.js'
import { safeStoredPath } from './storage/adapter.js'
import { storageFor } from './storage/registry.js'

/** One element of `_metadata.mediaObjects[property]` (contract: "Media object field"). */
export interface MediaObject {
  contentUrl: string
  fileSize?: number
  mimeType: string
  width: number | null
  height: number | null
  imagineFilter: string | null
}

const MEMO = 'uploads:info'

/** Loads the info rows of a batch of records in one query (prepareItems). */
export async function loadInfo(
  docs: Array<Record<string, unknown>>,
  fields: ResolvedField[],
  ctx: HydraContext,
): Promise<void> {
  const memo = (ctx.memo.get(MEMO) as Map<string, FileInfo[]> | undefined) ?? new Map<string, FileInfo[]>()
  ctx.memo.set(MEMO, memo)
  const paths = [
    ...new Set(
      docs.flatMap((doc) =>
        fields.map((f) => doc[f.property]).filter((p): p is string => typeof p === 'string' && !memo.has(p)),
      ),
    ),
  ]
  if (paths.length === 0) return
  for (const path of paths) memo.set(path, [])
  for (const row of await infoFor(ctx.payload, paths, ctx.req)) memo.get(row.source ?? row.path)?.push(row)
}

/** The API URL of a file: works with every adapter. */
export function apiUrl(
  resource: Resource,
  id: unknown,
  field: ResolvedField,
  ctx: HydraContext,
  filter: string | null,
): string {
  const base = `${ctx.options.apiPrefix}${resource.meta.pathPrefix}/${resource.meta.segment}/${String(id)}/download/${field.name}`
  return filter ? `${base}?imagineFilter=${encodeURIComponent(filter)}` : base
}

async function urlOf(
  resource: Resource,
  id: unknown,
  field: ResolvedField,
  ctx: HydraContext,
  row: FileInfo,
): Promise<string> {
  const api = apiUrl(resource, id, field, ctx, row.filter)
  if (field.urlGenerator === 'api') return api
  const storage = storageFor(ctx.payload, field.adapter)
  if (field.urlGenerator === 'public') return storage.publicUrl?.(row.path) ?? api
  const filename = row.path.split('/').pop() ?? 'file'
  return (
    (await storage.temporaryUrl?.(row.path, ctx.options.uploads.temporaryUrlTtlSeconds, {
      contentType: row.mimeType,
      filename,
    })) ?? api
  )
}

/**
 * `_metadata.mediaObjects` of a record: per file property, `[original,
 * ...variants]` from the info rows (no storage call but for signing
 * temporary URLs). A variant with no row (its file was missing when it was
 * made, or a filter added since) is skipped with a warning (rule 2).
 */
export async function mediaObjectsOf(
  resource: Resource,
  doc: Record<string, unknown>,
  fields: ResolvedField[],
  ctx: HydraContext,
): Promise<Record<string, MediaObject[]>> {
  if (
    !ctx.memo.has(MEMO) ||
    fields.some(
      (f) =>
        typeof doc[f.property] === 'string' &&
        !(ctx.memo.get(MEMO) as Map<string, FileInfo[]>).has(doc[f.property] as string),
    )
  ) {
    await loadInfo([doc], fields, ctx)
  }
  const memo = ctx.memo.get(MEMO) as Map<string, FileInfo[]>
  const out: Record<string, MediaObject[]> = {}
  for (const field of fields) {
    const path = doc[field.property]
    out[field.name] = []
    if (typeof path !== 'string' || !safeStoredPath(path)) continue
    const rows = (memo.get(path) ?? []).filter((row) => row.adapter === field.adapter)
    const original = rows.find((row) => row.source === null)
    if (!original) {
      ctx.payload.logger.warn(
        { path, field: field.name, resource: resource.meta.shortName, id: doc.id },
        'cwa uploads: no info record for a stored file; its media objects are skipped',
      )
      continue
    }
    const list: MediaObject[] = [
      {
        contentUrl: await urlOf(resource, doc.id, field, ctx, original),
        fileSize: original.fileSize,
        mimeType: original.mimeType,
        width: original.width,
        height: original.height,
        imagineFilter: null,
      },
    ]
    if (isRaster(original.mimeType)) {
      const variants = rows.filter((row) => row.source !== null)
      const used = new Set<FileInfo>()
      for (const filter of filtersOf(resource.meta, field, ctx.req)) {
        const row = variants.find((v) => v.filter === filter && !used.has(v))
        if (!row) {
          ctx.payload.logger.warn(
            { path, filter, field: field.name, resource: resource.meta.shortName, id: doc.id },
            'cwa uploads: an image variant is missing; skipped',
          )
          continue
        }
        used.add(row)
        list.push({
          contentUrl: await urlOf(resource, doc.id, field, ctx, row),
          mimeType: row.mimeType,
          width: row.width,
          height: row.height,
          imagineFilter: row.filter,
        })
      }
    }
    out[field.name] = list
  }
  return out
}

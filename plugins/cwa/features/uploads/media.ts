import type { HydraContext } from '../../hydra/context.js'
import type { Resource } from '../../core/registry.js'
import { publicBaseUrl } from '../../hydra/requestUrl.js'
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

/**
 * The origin of the file URLs of this request (SERVER_URL, else the
 * request's, as the docs `Link`). Absolute as the seed back end serves them:
 * a front end's image proxy (Nuxt image) passes an absolute URL through but
 * refuses a relative one it would look for among its own files.
 */
function originOf(ctx: HydraContext): string {
  let url: URL
  try {
    url = new URL(ctx.req.url ?? 'http://localhost/')
  } catch {
    url = new URL('http://localhost/')
  }
  return publicBaseUrl(ctx.payload.config.serverURL, url)
}

/**
 * The API URL of a file: works with every adapter. A variant is a path
 * segment (`/download/file/thumbnail`), never a query string, so that a
 * client appending its own `?published=true` keeps a well-formed URL.
 */
export function apiUrl(
  resource: Resource,
  id: unknown,
  field: ResolvedField,
  ctx: HydraContext,
  filter: string | null,
  origin = originOf(ctx),
): string {
  const base = `${origin}${ctx.options.apiPrefix}${resource.meta.pathPrefix}/${resource.meta.segment}/${String(id)}/download/${field.name}`
  return filter ? `${base}/${encodeURIComponent(filter)}` : base
}

/** A storage's URL made absolute on the origin when it is a path (a `publicUrl` of `/uploads`). */
const absolute = (url: string, origin: string) =>
  /^[a-z][a-z\d+.-]*:/i.test(url) ? url : new URL(url, `${origin}/`).href

async function urlOf(
  resource: Resource,
  id: unknown,
  field: ResolvedField,
  ctx: HydraContext,
  row: FileInfo,
  origin: string,
): Promise<string> {
  const api = apiUrl(resource, id, field, ctx, row.filter, origin)
  if (field.urlGenerator === 'api') return api
  const storage = storageFor(ctx.payload, field.adapter)
  if (field.urlGenerator === 'public') {
    const url = storage.publicUrl?.(row.path)
    return url ? absolute(url, origin) : api
  }
  const filename = row.path.split('/').pop() ?? 'file'
  const url = await storage.temporaryUrl?.(row.path, ctx.options.uploads.temporaryUrlTtlSeconds, {
    contentType: row.mimeType,
    filename,
  })
  return url ? absolute(url, origin) : api
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
  const origin = originOf(ctx)
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
        contentUrl: await urlOf(resource, doc.id, field, ctx, original, origin),
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
          contentUrl: await urlOf(resource, doc.id, field, ctx, row, origin),
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

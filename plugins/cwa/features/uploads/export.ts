import type { Payload } from 'payload'
import { getCwaMeta } from '../../core/types.js'
import { fieldsOf } from './fields.js'
import { type FileInfo, infoFor } from './info.js'
import { safeStoredPath } from './storage/adapter.js'
import { storageFor } from './storage/registry.js'

/**
 * Reading a site's stored files back out, for tools that copy a site
 * (`cwa:generate-fixtures`): which files each record holds, what their info
 * records say, and their bytes through the field's storage adapter. The copy
 * is written back the way the API takes files (a data URI in the transient
 * property), so the receiving site stores them and makes their variants
 * itself.
 */

/** One file field of a type: the transient property a write takes, the stored-path property, the storage alias. */
export interface UploadFieldNames {
  field: string
  property: string
  adapter: string
}

/** A file a record holds. */
export interface RecordFile extends UploadFieldNames {
  path: string
  /** The original's info record (null when none is on record), then its variants' in position order. */
  info: FileInfo | null
  variants: FileInfo[]
}

/** The file fields of a collection (none when it declares no `uploadable`). */
export function uploadFieldsOf(payload: Pick<Payload, 'collections'>, slug: string): UploadFieldNames[] {
  const collection: { config: Parameters<typeof getCwaMeta>[0] } | undefined = payload.collections[slug]
  const meta = collection ? getCwaMeta(collection.config) : null
  return meta ? fieldsOf(meta).map((f) => ({ field: f.name, property: f.property, adapter: f.adapter })) : []
}

/** The files the records of a collection hold, by record id, with their info records (one query for all). */
export async function recordFiles(
  payload: Payload,
  slug: string,
  docs: ReadonlyArray<Record<string, unknown>>,
): Promise<Map<string, RecordFile[]>> {
  const fields = uploadFieldsOf(payload, slug)
  const out = new Map<string, RecordFile[]>()
  if (fields.length === 0) return out
  const paths = docs.flatMap((doc) =>
    fields.flatMap((f) => (typeof doc[f.property] === 'string' && doc[f.property] ? [doc[f.property] as string] : [])),
  )
  const rows = await infoFor(payload, [...new Set(paths)])
  for (const doc of docs) {
    const files: RecordFile[] = []
    for (const f of fields) {
      const path = doc[f.property]
      if (typeof path !== 'string' || !path) continue
      const own = rows.filter((row) => row.adapter === f.adapter)
      files.push({
        ...f,
        path,
        info: own.find((row) => row.source === null && row.path === path) ?? null,
        variants: own.filter((row) => row.source === path),
      })
    }
    if (files.length > 0) out.set(String(doc.id), files)
  }
  return out
}

/** The bytes of a stored file, read through its storage adapter; null when the storage does not have it (or the path is unsafe). */
export async function readStoredFile(
  payload: Pick<Payload, 'config'>,
  adapter: string,
  path: string,
): Promise<Buffer | null> {
  const safe = safeStoredPath(path)
  if (!safe) return null
  const file = await storageFor(payload, adapter).get(safe)
  if (!file) return null
  const chunks: Uint8Array[] = []
  for await (const chunk of file.stream)
    chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array))
  return Buffer.concat(chunks)
}

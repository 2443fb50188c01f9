import type { CollectionConfig, Payload, PayloadRequest } from 'payload'
import type { CoreContext } from '../../core/context.js'
import { tableName } from '../../core/context.js'
import { getOptions } from '../../core/registry.js'
import { runSql, sql } from '../../core/utils/sql.js'

/**
 * The uploaded-file info records (a stored entity of the contract): size,
 * type and dimensions of every stored file, originals and variants, so that
 * a read builds `_metadata.mediaObjects` without asking the storage.
 * Written in the request's transaction; removed with the file, after commit.
 */
export const INFO_SLUG = 'uploaded_files'

export function uploadedFilesCollection(ctx: CoreContext): CollectionConfig {
  const closed = () => false
  return {
    slug: INFO_SLUG,
    dbName: tableName(ctx, INFO_SLUG),
    admin: { hidden: true },
    access: { read: closed, create: closed, update: closed, delete: closed },
    fields: [
      { name: 'adapter', type: 'text', required: true },
      { name: 'path', type: 'text', required: true, index: true },
      { name: 'source', type: 'text', index: true },
      { name: 'filter', type: 'text' },
      { name: 'position', type: 'number' },
      { name: 'mimeType', type: 'text', required: true },
      { name: 'fileSize', type: 'number', required: true },
      { name: 'width', type: 'number' },
      { name: 'height', type: 'number' },
    ],
  }
}

export interface FileInfo {
  adapter: string
  path: string
  /** The original's path, for a variant. */
  source: string | null
  filter: string | null
  position: number
  mimeType: string
  fileSize: number
  width: number | null
  height: number | null
}

const table = (payload: Pick<Payload, 'config'>) =>
  sql.identifier(`${getOptions(payload.config).tablePrefix}${INFO_SLUG}`)

export async function insertInfo(payload: Payload, req: PayloadRequest, rows: FileInfo[]): Promise<void> {
  if (rows.length === 0) return
  const values = rows.map(
    (r) =>
      sql`(${r.adapter}, ${r.path}, ${r.source}, ${r.filter}, ${r.position}, ${r.mimeType}, ${r.fileSize}, ${r.width}, ${r.height})`,
  )
  await runSql(
    payload,
    sql`INSERT INTO ${table(payload)} (adapter, path, source, filter, position, mime_type, file_size, width, height) VALUES ${sql.join(values, sql`, `)}`,
    req,
  )
}

interface Row {
  adapter: string
  path: string
  source: string | null
  filter: string | null
  position: string | number | null
  mime_type: string
  file_size: string | number
  width: string | number | null
  height: string | number | null
}

const toInfo = (r: Row): FileInfo => ({
  adapter: r.adapter,
  path: r.path,
  source: r.source,
  filter: r.filter,
  position: Number(r.position ?? 0),
  mimeType: r.mime_type,
  fileSize: Number(r.file_size),
  width: r.width === null ? null : Number(r.width),
  height: r.height === null ? null : Number(r.height),
})

/** Originals and their variants for these stored paths, in one query. */
export async function infoFor(payload: Payload, paths: string[], req?: PayloadRequest): Promise<FileInfo[]> {
  if (paths.length === 0) return []
  const list = sql.join(
    paths.map((p) => sql`${p}`),
    sql`, `,
  )
  const rows = await runSql<Row>(
    payload,
    sql`SELECT adapter, path, source, filter, position, mime_type, file_size, width, height FROM ${table(payload)}
        WHERE (source IS NULL AND path IN (${list})) OR source IN (${list}) ORDER BY position`,
    req,
  )
  return rows.map(toInfo)
}

/** Forgets a file and its variants (after it left the storage). */
export async function deleteInfo(payload: Payload, adapter: string, path: string): Promise<void> {
  await runSql(
    payload,
    sql`DELETE FROM ${table(payload)} WHERE adapter = ${adapter} AND (path = ${path} OR source = ${path})`,
  )
}

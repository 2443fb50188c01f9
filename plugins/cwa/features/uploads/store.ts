import { rm } from 'node:fs/promises'
import { type Payload, type PayloadRequest, ValidationError } from 'payload'
import { afterCommit } from '../../core/transactions/index.js'
import { assertDecodes, headerSize, makeVariant } from './images.js'
import { type FileInfo, deleteInfo, infoFor, insertInfo } from './info.js'
import { copyName, storedName, variantName } from './names.js'
import type { ResolvedField } from './options.js'
import { getOptions } from '../../core/registry.js'
import { isRaster, sniffFile } from './sniff.js'
import { type StagedUpload, stagingFile } from './staging.js'
import { safeStoredPath } from './storage/adapter.js'
import { storageFor } from './storage/registry.js'
import { getCwaMeta } from '../../core/types.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { fieldsOf } from './fields.js'

/**
 * Files in and out of the storage, always in step with the database: a new
 * file waits in staging and is put into the storage after its record's
 * transaction commits; a file a record no longer names is removed after the
 * commit, and only when no record names it any more.
 */

const humanSize = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MiB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} bytes`

/** A refusal on the file property (a 422 on the JSON-LD API, a 400 on Payload REST). */
export function fileViolation(collection: string, field: string, message: string): ValidationError {
  return new ValidationError({ collection, errors: [{ path: field, message }] })
}

/**
 * Checks a staged upload against its field (size, type from the bytes, pixel
 * count from the header, a full decode), makes its variants, records the
 * info rows in the request's transaction and queues the files for the
 * storage after commit. Returns the stored path.
 */
export async function storeStaged(
  payload: Payload,
  req: PayloadRequest,
  collection: string,
  field: ResolvedField,
  staged: StagedUpload,
  filters: string[],
): Promise<string> {
  const refuse = (message: string) => fileViolation(collection, field.name, message)
  if (field.maxSize !== null && (staged.tooLarge || staged.size > field.maxSize)) {
    throw refuse(
      `The file is too large (${staged.tooLarge ? 'more than ' : ''}${humanSize(staged.size)}). Allowed maximum size is ${humanSize(field.maxSize)}.`,
    )
  }
  if (staged.size === 0) throw refuse('An empty file is not allowed.')
  const type = await sniffFile(staged.file)
  const path = storedName(field.prefix, staged.clientName, type.ext)
  const rows: FileInfo[] = []
  const files: Array<{ path: string; file: string; mimeType: string }> = [
    { path, file: staged.file, mimeType: type.mimeType },
  ]
  let width: number | null = null
  let height: number | null = null
  if (isRaster(type.mimeType)) {
    // From the header only: a pixel bomb is refused before any pixel is decoded.
    const size = await headerSize(staged.file)
    if (!size) throw refuse('This file is not a valid image.')
    if (size.width * size.height > field.maxPixels) {
      throw refuse(
        `The image has too many pixels (${size.width * size.height}). Maximum number of pixels allowed is ${field.maxPixels}.`,
      )
    }
    if (!(await assertDecodes(staged.file, field.maxPixels))) throw refuse('This file is not a valid image.')
    width = size.width
    height = size.height
    const defined = getOptions(payload.config).uploads.filters
    const seen = new Map<string, number>()
    try {
      for (const [position, name] of filters.entries()) {
        const filter = defined[name]
        if (!filter) {
          payload.logger.warn(
            { filter: name, field: field.name, collection },
            'cwa uploads: unknown image filter skipped',
          )
          continue
        }
        const occurrence = (seen.get(name) ?? 0) + 1
        seen.set(name, occurrence)
        const target = stagingFile(payload)
        const out = await makeVariant(staged.file, target, filter, type.mimeType, field.maxPixels).catch(
          async (err: unknown) => {
            await rm(target, { force: true })
            payload.logger.info(
              { err, filter: name, field: field.name, collection },
              'cwa uploads: an image variant could not be made; the upload is refused',
            )
            throw refuse('This file is not a valid image.')
          },
        )
        const variantPath = variantName(path, name, occurrence, out.ext)
        files.push({ path: variantPath, file: target, mimeType: out.mimeType })
        rows.push({
          adapter: field.adapter,
          path: variantPath,
          source: path,
          filter: name,
          position: position + 1,
          mimeType: out.mimeType,
          fileSize: out.size,
          width: out.width,
          height: out.height,
        })
      }
    } catch (error) {
      // The variants made so far never reach the storage.
      await discardStaged(files.slice(1).map((f) => f.file))
      throw error
    }
  }
  rows.unshift({
    adapter: field.adapter,
    path,
    source: null,
    filter: null,
    position: 0,
    mimeType: type.mimeType,
    fileSize: staged.size,
    width,
    height,
  })
  await insertInfo(payload, req, rows)
  const storage = storageFor(payload, field.adapter)
  await afterCommit(req, async () => {
    for (const file of files) {
      await storage.put(file.path, file.file, file.mimeType)
      await rm(file.file, { force: true })
    }
  })
  return path
}

/**
 * A draft twin's own copy of its published record's file (contract rule 5),
 * with its variants; the copy is made after commit. When the original is not
 * in the storage, the draft keeps the original path.
 */
export async function copyForDraft(
  payload: Payload,
  req: PayloadRequest,
  field: ResolvedField,
  source: string,
): Promise<string> {
  const safe = safeStoredPath(source)
  if (!safe) return source
  const storage = storageFor(payload, field.adapter)
  if (!(await storage.exists(safe))) return source
  const target = copyName(safe)
  const oldStem = safe.replace(/\.[^./]*$/, '')
  const newStem = target.replace(/\.[^./]*$/, '')
  const rows = (await infoFor(payload, [safe], req)).filter((row) => row.adapter === field.adapter)
  const copies = rows.map((row) => ({
    ...row,
    path: row.source === null ? target : newStem + row.path.slice(oldStem.length),
    source: row.source === null ? null : target,
  }))
  await insertInfo(payload, req, copies)
  const pairs = rows.map((row, i) => [row.path, copies[i]!.path] as const)
  if (pairs.length === 0) pairs.push([safe, target])
  await afterCommit(req, async () => {
    for (const [from, to] of pairs) {
      try {
        await storage.copy(from, to)
      } catch (err) {
        payload.logger.warn({ err, path: from }, 'cwa uploads: a file could not be copied for a draft')
      }
    }
  })
  return target
}

/**
 * After commit: removes a file a record stopped naming (replaced, cleared,
 * record deleted), with its variants and info rows, unless a record still
 * names it (a publish handed it to the published twin; a draft sharing a
 * missing original).
 */
export async function releaseAfterCommit(
  payload: Payload,
  req: PayloadRequest,
  adapter: string,
  path: string,
): Promise<void> {
  await afterCommit(req, async () => {
    if (await isReferenced(payload, adapter, path)) return
    const storage = storageFor(payload, adapter)
    const safe = safeStoredPath(path)
    const rows = await infoFor(payload, [path])
    if (safe) {
      for (const p of new Set([safe, ...rows.map((row) => row.path)])) {
        const checked = safeStoredPath(p)
        if (checked) await storage.delete(checked)
      }
    }
    await deleteInfo(payload, adapter, path)
  })
}

/** Whether any record of any uploadable type names this stored path in a field of this adapter: one query per type. */
async function isReferenced(payload: Payload, adapter: string, path: string): Promise<boolean> {
  for (const collection of payload.config.collections) {
    const meta = getCwaMeta(collection)
    if (!meta) continue
    const fields = fieldsOf(meta).filter((field) => field.adapter === adapter)
    if (fields.length === 0) continue
    const table = collection.dbName ?? collection.slug
    const columns = fields.map((field) => sql`${sql.identifier(snake(field.property))} = ${path}`)
    const rows = await runSql(
      payload,
      sql`SELECT 1 FROM ${sql.identifier(String(table))} WHERE ${sql.join(columns, sql` OR `)} LIMIT 1`,
    )
    if (rows.length > 0) return true
  }
  return false
}

/** Payload's column name of a top-level field (camelCase -> snake_case). */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

export async function discardStaged(files: string[]): Promise<void> {
  for (const file of files) await rm(file, { force: true })
}

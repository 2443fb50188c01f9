import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Payload, PayloadRequest } from 'payload'
import { getOptions } from '../../core/registry.js'

/**
 * Uploads wait in a staging directory until their transaction commits; only
 * then do they reach the storage (after-commit), so a failed request writes
 * nothing there. A staged upload is named in the record's data by a token
 * (`cwa-staged:<uuid>`) that only this request's context resolves: a client
 * cannot name a staged file of its own.
 */
export interface StagedUpload {
  /** The file in the staging directory. */
  file: string
  /** The client's file name (a data URI's `name` parameter; null for a data URI without one). */
  clientName: string | null
  size: number
  /** Past the field's maxSize while it was received (the rest was not kept). */
  tooLarge?: boolean
}

const TOKEN_PREFIX = 'cwa-staged:'
const CONTEXT_KEY = 'cwaStagedUploads'
/** Staged files older than this are left over from a failed request: removed by the next upload. */
const LEFTOVER_MS = 60 * 60 * 1000

export function stagingDirectory(payload: Pick<Payload, 'config'>): string {
  const dir = getOptions(payload.config).uploads.stagingDirectory ?? path.join(tmpdir(), 'cwa-uploads-staging')
  mkdirSync(dir, { recursive: true })
  return dir
}

export function stagingFile(payload: Pick<Payload, 'config'>): string {
  return path.join(stagingDirectory(payload), randomUUID())
}

/** Registers a staged upload on the request and returns the token that names it in the data. */
export function stageToken(req: PayloadRequest, upload: StagedUpload): string {
  const context = req.context as Record<string, unknown>
  const map = (context[CONTEXT_KEY] as Map<string, StagedUpload> | undefined) ?? new Map<string, StagedUpload>()
  context[CONTEXT_KEY] = map
  const token = `${TOKEN_PREFIX}${randomUUID()}`
  map.set(token, upload)
  return token
}

/** The staged upload a token names on this request, or undefined. */
export function stagedByToken(req: PayloadRequest, value: unknown): StagedUpload | undefined {
  if (typeof value !== 'string' || !value.startsWith(TOKEN_PREFIX)) return undefined
  return ((req.context as Record<string, unknown>)[CONTEXT_KEY] as Map<string, StagedUpload> | undefined)?.get(value)
}

const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[^;,]*)*)(;base64)?,/

/**
 * A base64 (or percent-encoded) data URI, decoded to a staged file; null when
 * the value is not one. A `name` parameter (`data:image/png;name=logo.png;base64,...`,
 * percent-encoded) is the client's file name, as a multipart part's: the
 * stored name keeps its stem (cleaned). Without it the stored name is `<uuid>.<ext>`.
 */
export async function stageDataUri(payload: Payload, value: string): Promise<StagedUpload | null> {
  const match = DATA_URI.exec(value.slice(0, 1280))
  if (!match) return null
  const clientName = dataUriName(match[2] ?? '')
  const encoded = value.slice(match[0].length)
  let bytes: Buffer
  if (match[3]) {
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(encoded)) return null
    bytes = Buffer.from(encoded, 'base64')
  } else {
    try {
      bytes = Buffer.from(decodeURIComponent(encoded), 'utf8')
    } catch {
      return null
    }
  }
  const file = stagingFile(payload)
  await writeFile(file, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length))
  return { file, clientName, size: bytes.length }
}

function dataUriName(parameters: string): string | null {
  const raw = /;name=([^;,]*)/i.exec(parameters)?.[1]
  if (!raw) return null
  try {
    return decodeURIComponent(raw) || null
  } catch {
    return null
  }
}

/** Removes staged files left by requests that failed (older than an hour). */
export async function sweepStaging(payload: Pick<Payload, 'config'>): Promise<void> {
  const dir = stagingDirectory(payload)
  const now = Date.now()
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name)
    const info = await stat(file).catch(() => null)
    if (info && now - info.mtimeMs > LEFTOVER_MS) await rm(file, { force: true })
  }
}

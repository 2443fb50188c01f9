import type { Payload } from 'payload'
import { getOptions, getRegistry } from '../../core/registry.js'
import { isDatabaseUnavailable } from '../../core/utils/databaseUnavailable.js'
import { UNBOUND_READ_TAG } from '../../core/utils/readDependencies.js'
import { needsPrimary, onPrimary, onReplica } from '../../core/replicas/index.js'
import type { ComputedAnswer, HydraExtension, StoredRead, StoredReadRequest } from '../../hydra/extension.js'
import { credentialCookieNames } from '../../session/index.js'
import { CACHED_READS } from '../httpCache/index.js'
import { admitted } from './admission.js'
import { readShape, type ReadShape } from './key.js'
import { readModelReady } from './schema.js'
import { takeDropped } from './dropped.js'
import { storeLater } from './queue.js'
import { lookup, readSource } from './store.js'

/** The response header that says where an answer came from: `hit` (the store), `miss` (computed now). */
export const READ_MODEL_HEADER = 'CWA-Read-Model'

/** Headers of a computed answer that are not kept (they belong to one exchange). */
const NOT_KEPT = new Set(['set-cookie', 'content-length', 'transfer-encoding', 'connection', 'date'])

/** Seconds from now until `at`, never negative. */
const secondsUntil = (at: Date) => Math.max(0, Math.floor((at.getTime() - Date.now()) / 1000))

/** The stored headers as sent now: lifetimes capped at the next scheduled moment (the answer may change then). */
function headersOf(stored: Array<[string, string]>, expiresAt: Date | null): Headers {
  const headers = new Headers()
  for (const [name, value] of stored) {
    headers.append(
      name,
      name === 'cache-control' && expiresAt
        ? value.replace(
            /\b(max-age|s-maxage)=(\d+)/gi,
            (_m, directive: string, seconds: string) =>
              `${directive}=${Math.min(Number(seconds), secondsUntil(expiresAt))}`,
          )
        : value,
    )
  }
  headers.set(READ_MODEL_HEADER, 'hit')
  return headers
}

const warnedAt = new WeakMap<Payload, number>()

/** At most one warning every 30 s: one cause, not one line per read. */
function warnRarely(payload: Payload, err: unknown): void {
  const now = Date.now()
  if (now - (warnedAt.get(payload) ?? 0) < 30_000) return
  warnedAt.set(payload, now)
  payload.logger.warn({ err }, "The read model could not be read: reads take Payload's path meanwhile")
}

/**
 * Public reads a front end sends on every page besides the cacheable ones
 * (the HTTP cache's list): the site configuration, and the route manifest
 * of the CWA Nuxt module's profile.
 */
const FRONT_END_READS = /^\/(_\/site_config_parameters|_\/routes_manifest)(\/|$)/

/** Whether the read model takes this request: an anonymous GET or HEAD of a public read. */
function eligible(request: StoredReadRequest): boolean {
  const { payload } = request
  if (!getOptions(payload.config).readModel.enabled || !readModelReady(payload)) return false
  if (!CACHED_READS.test(request.path) && !FRONT_END_READS.test(request.path)) return false
  return !needsPrimary(request.method, (name) => request.headers.get(name), {
    cookies: credentialCookieNames(payload),
  })
}

async function answerStored(request: StoredReadRequest): Promise<StoredRead | null> {
  if (!eligible(request)) return null
  const { payload } = request
  const shape = readShape(request)
  const { key } = shape
  const source = readSource(payload)
  // This process's own write just dropped it: no answer to look for (a replica may not have the write yet).
  const dropped = takeDropped(payload, key)
  if (dropped && source.replica === null) return { fill: fillOf(request, shape, dropped, (work) => onPrimary(work)) }
  let found: Awaited<ReturnType<typeof lookup>>
  try {
    found = await lookup(payload, key, source.pool)
  } catch (err) {
    // The database down or frozen: the read answers as any other would (503, Retry-After).
    if (isDatabaseUnavailable(err)) throw err
    // Anything else (the store being rebuilt by a newer release starting): this read takes Payload's path.
    warnRarely(payload, err)
    return null
  }
  if ('hit' in found) {
    return {
      answer: {
        status: found.hit.status,
        headers: headersOf(found.hit.headers, found.nextMoment),
        body: found.hit.body,
      },
    }
  }
  // Where the lookup read: another replica may not have what its snapshot saw.
  return {
    fill: fillOf(request, shape, found, (work) =>
      source.replica === null ? onPrimary(work) : onReplica(source.replica, work),
    ),
  }
}

/** A fill: the answer computed through Payload's path (by `run`), then kept if it may be. */
function fillOf(
  request: StoredReadRequest,
  shape: ReadShape,
  under: { snapshot: string; computedAt: Date },
  run: <T>(work: () => Promise<T>) => Promise<T>,
): Extract<StoredRead, { fill: unknown }>['fill'] {
  const { payload } = request
  return {
    run,
    keep: async (answer: ComputedAnswer) => {
      answer.headers.set(READ_MODEL_HEADER, 'miss')
      if (answer.status !== 200 || answer.body === null || request.method !== 'GET') return
      if (/\b(private|no-store)\b/.test(answer.headers.get('cache-control') ?? '')) return
      // Computed past an error a read survived: no write would drop it.
      if (answer.dependencies.includes(UNBOUND_READ_TAG)) return
      // Larger than the whole store may hold: never kept (it would push everything else out, then go itself).
      if (Buffer.byteLength(answer.body) > getOptions(payload.config).readModel.maxBytes) return
      if (!admitted(request, shape)) return
      const headers = [...answer.headers].filter(
        ([name]) => !NOT_KEPT.has(name) && name !== READ_MODEL_HEADER.toLowerCase(),
      )
      const body = answer.body
      // Kept beside the answer, not before it: the caller waits neither for the tags nor for the store's commit.
      const { key, rank } = shape
      storeLater(payload, key, body.length, () => ({
        key,
        rank,
        path: `${request.path}${request.url.search}`,
        snapshot: under.snapshot,
        computedAt: under.computedAt,
        tags: tagsOf(request, answer),
        answer: { status: answer.status, headers, body },
      }))
    },
  }
}

/**
 * What a stored answer is dropped by: every IRI its body names (the pipeline recorded them), the resource or
 * collection its path names (even when the body does not repeat it), and
 * what its reads depended on besides.
 */
function tagsOf(request: StoredReadRequest, answer: ComputedAnswer): string[] {
  const registry = getRegistry(request.payload.config)
  const own = `${registry.apiPrefix}${request.path}`
  const tags = new Set(answer.tags)
  if (registry.parseIri(own)) tags.add(own)
  for (const tag of answer.dependencies) tags.add(tag)
  return [...tags]
}

export const readModelExtension: HydraExtension = {
  name: 'readModel',
  answerStored,
}

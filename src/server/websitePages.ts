import { AsyncLocalStorage } from 'node:async_hooks'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Request, Response } from 'express'
import type { Payload } from 'payload'
import { keepOwnAnswer, lookupOwnAnswer, READ_MODEL_HEADER } from 'payload-cwa'

/**
 * The website's pages kept in the read model (issue 39): a visitor's page is one lookup in PostgreSQL, as exact as
 * the API's answers. On a miss the Next.js app renders it; the page notes the API's cache tags of everything it
 * read (app/(site)/renderContext.ts) in this request's context, and the HTML is offered to the read model, which
 * keeps it unless a write to one of those tags committed since the lookup, and drops it on the next such write, on
 * every instance. Previews (draft mode), Next.js's own requests (its assets, a client navigation's RSC payload)
 * and anything but a GET pass straight to Next.js.
 */

/** What a render notes: the tags of the answers it read, or that it may not be kept (an error, a preview). */
export interface RenderNotes {
  tags: string[]
  keep: boolean
  /** The page's own status (a path with no route renders the not-found page: 404). */
  status?: number
}

/** Shared with the site's Next.js app (a bundle of its own, the same process) by a registered symbol. */
const CONTEXT = Symbol.for('payload-cwa.reference-site.render')
const renders: AsyncLocalStorage<RenderNotes> = ((globalThis as Record<symbol, unknown>)[CONTEXT] ??=
  new AsyncLocalStorage<RenderNotes>()) as AsyncLocalStorage<RenderNotes>

/** Headers that belong to one exchange (or to a visitor), never kept. */
const NOT_KEPT = new Set(['set-cookie', 'content-length', 'transfer-encoding', 'connection', 'date', 'keep-alive'])

/** Requests that are not a visitor's page: Next.js's own, the APIs', previews. */
const PASSED = /^\/(_next|_api|api|admin|_preview|\.well-known|_health)(\/|$)/

/** A page's document (not Next.js's assets, an RSC payload or an action, not the APIs'). */
function pageRequest(req: Request): boolean {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || PASSED.test(req.path)) return false
  return !(
    '_rsc' in req.query ||
    req.headers.rsc ||
    req.headers['next-router-state-tree'] ||
    req.headers['next-action']
  )
}

function keptRequest(req: Request): boolean {
  if (req.method !== 'GET') return false
  // One key a page: a query string (a listing's paging, or anything a client invents) is rendered each time.
  if (req.originalUrl.includes('?')) return false
  // Draft mode (a preview) and its token: the editor's rights, never a visitor's page.
  return !/(?:^|;\s*)(__prerender_bypass|cwa_preview)=/.test(req.headers.cookie ?? '')
}

/**
 * Renders a page in a context its render notes into; the status it notes is the one sent (Next.js sends a page
 * with 200: the not-found page rendered as the page itself is a 404, and needs no JavaScript to show).
 */
async function render(req: Request, res: Response, notes: RenderNotes, next: Handler): Promise<void> {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response
  res.writeHead = ((status: number, ...rest: unknown[]) =>
    writeHead(notes.status && status === 200 ? notes.status : status, ...rest)) as Response['writeHead']
  await renders.run(notes, () => next(req, res))
}

type Handler = (req: Request, res: Response) => Promise<void>

function buildIdOf(root: string): string {
  try {
    return readFileSync(path.join(root, '.next', 'BUILD_ID'), 'utf8').trim()
  } catch {
    return 'unbuilt'
  }
}

/**
 * Wraps the Next.js request handler. The key names the build (a page of another build points at assets that are
 * gone), the origin its URLs are written on (SERVER_URL, else the Host, as the page's own API reads) and the URL.
 */
export function keptWebsitePages(payload: Payload, root: string, next: Handler): Handler {
  const buildId = buildIdOf(root)
  return async (req, res) => {
    if (!pageRequest(req)) return next(req, res)
    if (!keptRequest(req)) return render(req, res, { tags: [], keep: false }, next)
    const origin = process.env.SERVER_URL?.replace(/\/+$/, '') || `http://${req.headers.host ?? 'localhost'}`
    const key = `website ${buildId} ${origin}${req.originalUrl}`
    let found: Awaited<ReturnType<typeof lookupOwnAnswer>>
    try {
      found = await lookupOwnAnswer(payload, key)
    } catch {
      found = null // the store unreadable: render, keep nothing
    }
    if (found && 'hit' in found) {
      res.status(found.hit.status)
      for (const [name, value] of found.hit.headers) res.append(name, value)
      res.setHeader(READ_MODEL_HEADER, 'hit')
      res.end(found.hit.body)
      return
    }
    const miss = found?.miss
    if (!miss) return render(req, res, { tags: [], keep: false }, next)
    // Kept as text: the page is rendered uncompressed (Next.js would gzip it for a client that takes gzip).
    delete req.headers['accept-encoding']
    const notes: RenderNotes = { tags: [], keep: true }
    const decoder = new TextDecoder()
    const chunks: string[] = []
    const write = res.write.bind(res) as (...args: unknown[]) => boolean
    const end = res.end.bind(res) as (...args: unknown[]) => Response
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return
      // Decoded as it comes: the page is UTF-8 text, uncompressed (below).
      chunks.push(
        typeof chunk === 'string'
          ? typeof encoding === 'string' && encoding !== 'utf8' && encoding !== 'utf-8'
            ? Buffer.from(chunk, encoding as BufferEncoding).toString('utf8')
            : chunk
          : decoder.decode(chunk as Uint8Array, { stream: true }),
      )
    }
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0])
      return write(chunk, ...rest)
    }) as Response['write']
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0])
      return end(chunk, ...rest)
    }) as Response['end']
    res.setHeader(READ_MODEL_HEADER, 'miss')
    res.once('finish', () => {
      // A page only: a 404 is rendered each time (any path is one: kept, they would crowd the pages out).
      if (!notes.keep || res.statusCode !== 200) return
      const headers = Object.entries(res.getHeaders()).flatMap(([name, value]): Array<[string, string]> =>
        NOT_KEPT.has(name) || name === READ_MODEL_HEADER.toLowerCase()
          ? []
          : (Array.isArray(value) ? value : [value]).map((one) => [name, String(one)]),
      )
      keepOwnAnswer(payload, key, miss, notes.tags, {
        status: res.statusCode,
        headers,
        body: chunks.join('') + decoder.decode(),
      })
    })
    await render(req, res, notes, next)
  }
}

import { badRequest, HttpError, violation, ViolationError } from '../errors.js'

const POST_TYPES = ['application/ld+json', 'application/json']
const PATCH_TYPES = ['application/merge-patch+json']

/**
 * Largest request body: the reference server's post_max_size (21M), so that
 * a file sent as a base64 data URI in a JSON body fits like a form upload.
 */
export const MAX_BODY_BYTES = 21 * 1024 * 1024

/**
 * Largest body of an anonymous caller (login, registration, form submits,
 * password flows): 64 KiB, far below what a signed-in upload needs.
 */
export const MAX_ANONYMOUS_BODY_BYTES = 64 * 1024

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64

/** The 413 of a body past `limit` (the rest of the body is dropped as it arrives: discardRest). */
export function bodyTooLarge(limit: number): HttpError {
  const message =
    limit < MAX_BODY_BYTES
      ? `Request body too large: anonymous requests may send at most ${limit / 1024} KiB; sign in to send more.`
      : 'Request body too large.'
  return new HttpError(413, message)
}

/**
 * How long, and how much more, a body refused early (a 413 before its end)
 * is still read and dropped, as a proxy's lingering close does: a client
 * that writes its whole body before it reads (most simple clients) then
 * reads the answer instead of EPIPE, the server closing while it still
 * sent. Past either bound the connection is closed (the answer has been
 * there to read for that long).
 */
export const LINGER_MS = 5_000
export const LINGER_BYTES = 64 * 1024 * 1024

/** A Node request as far as dropping its body goes: it can be ended at once, and its socket's close deferred. */
interface NodeBody {
  destroy(): void
  socket?: { destroySoon?: () => void; end(): void; destroy(): void } | null
}

const isNodeBody = (body: unknown): body is NodeBody =>
  typeof (body as { destroy?: unknown } | null)?.destroy === 'function'

/**
 * Reads the rest of a body (from `iterator`, where its reader stopped) and
 * drops it, within LINGER_MS and LINGER_BYTES; the answer goes out
 * meanwhile. A body that ends in time leaves its connection as HTTP says
 * (kept alive, or closed when the client asked); one that does not is
 * ended (a Node request destroyed: its connection closed; a Fetch body's
 * reader released).
 */
export function discardRest(
  body: AsyncIterable<Uint8Array>,
  iterator: AsyncIterator<Uint8Array> = body[Symbol.asyncIterator](),
): void {
  const node = isNodeBody(body) ? body : null
  // Node closes the connection once the answer is sent when the client said `Connection: close`
  // (socket.destroySoon): with body bytes still arriving that is a reset, the answer lost. That close
  // waits until the body is dropped. (Not even a FIN before: a client that is not half-open, Node's
  // net default, ends its own side on it and fails its next write with EPIPE.)
  const socket = node?.socket
  let closeWhenDone = false
  if (socket?.destroySoon) socket.destroySoon = () => void (closeWhenDone = true)
  let dropped = 0
  let over = false
  const finish = (ended: boolean) => {
    if (over) return
    over = true
    clearTimeout(timer)
    if (socket) delete socket.destroySoon // the prototype's again (an own property was set above)
    // Not iterator.return() alone for a Node request: it waits for a pending read, which a silent client never completes.
    if (!ended) {
      if (node) node.destroy()
      else void iterator.return?.().catch(() => {})
    } else if (closeWhenDone) socket?.destroySoon?.()
  }
  const timer = setTimeout(() => finish(false), LINGER_MS)
  timer.unref?.()
  void (async () => {
    try {
      for (;;) {
        const next = await iterator.next()
        if (next.done) break
        dropped += next.value.length
        if (dropped > LINGER_BYTES) return finish(false)
      }
      finish(true)
    } catch {
      // The client went away: nothing left to drop.
      finish(true)
    }
  })()
}

/**
 * Where a JSON text nests deeper than `max` levels, found without parsing
 * it: null when it does not, else the top-level property under which it
 * does ('' for the root or an array). Strings are skipped, so brackets in
 * them do not count.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): { property: string } | null {
  let depth = 0
  let inString = false
  let start = 0
  let lastTopString = ''
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) {
        inString = false
        if (depth === 1) lastTopString = text.slice(start, i + 1)
      }
      continue
    }
    if (c === 0x22) {
      inString = true
      start = i
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) {
        let property = ''
        try {
          property = text.trimStart().startsWith('{') ? String(JSON.parse(lastTopString)) : ''
        } catch {
          property = ''
        }
        return { property }
      }
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return null
}

/**
 * Reads the JSON body of a write, checking the media type (POST: ld+json or
 * json; PATCH: merge-patch+json; anything else 415), size (413: past
 * `limit`, at once when Content-Length says so), nesting (422 past
 * MAX_JSON_DEPTH levels, on the top-level property holding it) and syntax
 * (400). An empty POST without a content type has no body (logout, publish
 * requests without data). Only POST and PATCH carry a body: anything else
 * is left unread, so that a PUT answers 405 whatever its body holds.
 */
export async function readJsonBody(
  method: string,
  contentType: string | null,
  body: AsyncIterable<Uint8Array> | null,
  limit = MAX_BODY_BYTES,
  contentLength: string | null = null,
  /** The endpoint's own media types (Endpoint.bodyTypes), when it declares them. */
  bodyTypes?: string[],
): Promise<unknown> {
  if (method !== 'POST' && method !== 'PATCH') return undefined
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (contentLength !== null && /^\d+$/.test(contentLength.trim()) && Number(contentLength) > limit) {
    if (body) discardRest(body)
    throw bodyTooLarge(limit)
  }
  const raw = await readRaw(body, limit)
  if (raw.length === 0 && method === 'POST' && type === '') return undefined
  const accepted = bodyTypes ?? (method === 'PATCH' ? PATCH_TYPES : POST_TYPES)
  if (!accepted.includes(type)) {
    throw new HttpError(
      415,
      `The content-type "${type || '(none)'}" is not supported. Supported MIME types are "${accepted.join('", "')}".`,
    )
  }
  if (raw.length === 0) return undefined
  const text = raw.toString('utf8').replace(/^\uFEFF/, '')
  const deep = jsonTooDeep(text)
  if (deep) {
    // A 422 on the property holding it, as a value too deep for its property always was.
    throw new ViolationError([
      violation(deep.property, `This value is nested more than ${MAX_JSON_DEPTH} levels deep.`, 'too_deep'),
    ])
  }
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest('Syntax error: the request body is not valid JSON.')
  }
}

/**
 * The whole body, up to `limit` bytes. Past it, the rest is dropped as it
 * arrives (discardRest: the iterator is never closed under the answer)
 * and the 413 is thrown.
 */
async function readRaw(body: AsyncIterable<Uint8Array> | null, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0)
  const chunks: Uint8Array[] = []
  let size = 0
  const iterator = body[Symbol.asyncIterator]()
  try {
    for (;;) {
      const next = await iterator.next()
      if (next.done) break
      size += next.value.length
      if (size > limit) {
        discardRest(body, iterator)
        break
      }
      chunks.push(next.value)
    }
  } catch {
    // A client that goes away mid-body (or sends less than its Content-Length) is a bad request, not a crash.
    throw badRequest('The request body was not received completely.')
  }
  if (size > limit) throw bodyTooLarge(limit)
  return Buffer.concat(chunks)
}

import type { NextFunction, Request, Response } from 'express'
import { createLocalReq, type Payload } from 'payload'
import type { HydraContext } from './context'
import { errorBody } from './errorBody'
import { badRequest, classifyError, HttpError } from './errors'
import type { OperationResult } from './operations'
import { getOptions, getRegistry } from './registry'

export const JSONLD = 'application/ld+json; charset=utf-8'

/** Fetch-style Headers from an Express request (lower-case names). */
export function fetchHeaders(req: Request): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return headers
}

/** Builds the per-request context: caller, Payload request, query, headers. */
export async function buildContext(payload: Payload, req: Request): Promise<HydraContext> {
  const url = requestUrl(req)
  const headers = fetchHeaders(req)
  const user = (res(req).locals.user ?? null) as HydraContext['user']
  const payloadReq = await createLocalReq({ user: user ?? undefined, req: { headers, url: url.href } as never }, payload)
  if (!user) payloadReq.user = null
  return {
    payload,
    registry: getRegistry(payload.config),
    options: getOptions(payload.config),
    req: payloadReq,
    user,
    query: url.searchParams,
    headers,
    requestPath: url.pathname,
    memo: new Map(),
  }
}

const res = (req: Request) => req.res as Response

/**
 * The absolute URL of a request. A Host header or a path that does not make
 * a valid URL (a client can send anything) falls back to localhost, so that
 * building the context never fails on bad input.
 */
export function requestUrl(req: Request): URL {
  const path = req.originalUrl.startsWith('/') ? req.originalUrl : `/${req.originalUrl}`
  try {
    return new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}${path}`)
  } catch {
    try {
      return new URL(`http://localhost${path}`)
    } catch {
      return new URL('http://localhost/')
    }
  }
}

export function send(response: Response, result: OperationResult): void {
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value)
  if (result.body === undefined) {
    response.status(result.status).end()
    return
  }
  response.status(result.status).type(JSONLD).send(JSON.stringify(result.body))
}

/** Wraps an operation: builds the context, runs it, sends the result or a Hydra error. */
export function handle(payload: Payload, operation: (ctx: HydraContext, req: Request) => Promise<OperationResult>) {
  return async (req: Request, response: Response, next: NextFunction) => {
    try {
      const ctx = await buildContext(payload, req)
      send(response, await operation(ctx, req))
    } catch (error) {
      next(error)
    }
  }
}

/** Express error handler: every error becomes a JSON-LD body; 5xx are logged, details never leaked. */
export function hydraErrorHandler(payload: Payload) {
  const { apiPrefix } = getOptions(payload.config)
  return (error: unknown, req: Request, response: Response, _next: NextFunction) => {
    const classified = classifyError(error, !response.locals.user, req.method)
    if (classified.status >= 500) {
      payload.logger.error({ err: error, method: req.method, path: req.route?.path ?? req.path.replace(/\/((?:verify|confirm)-email)\/.*$/, '/$1/[redacted]') }, 'JSON-LD request failed')
    }
    if (classified instanceof HttpError) {
      for (const [name, value] of Object.entries(classified.headers)) response.setHeader(name, value)
    }
    if (response.headersSent) return
    response.status(classified.status).type(JSONLD).send(JSON.stringify(errorBody(classified, apiPrefix)))
  }
}

const POST_TYPES = ['application/ld+json', 'application/json']
const PATCH_TYPES = ['application/merge-patch+json']

/**
 * Largest request body: the reference server's post_max_size (21M), so that
 * a file sent as a base64 data URI in a JSON body fits like a form upload.
 */
export const MAX_BODY_BYTES = 21 * 1024 * 1024

/**
 * Reads a JSON body for writes, checking the media type (POST: ld+json or
 * json; PATCH: merge-patch+json; anything else 415), size (413) and syntax (400).
 * PUT is no operation of the API: its body is left unread, so that the
 * route answers 405 whatever the body is.
 */
export function jsonBody(limit = MAX_BODY_BYTES) {
  return async (req: Request, _response: Response, next: NextFunction) => {
    if (req.method !== 'POST' && req.method !== 'PATCH') return next()
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    // Multipart uploads (POST {item}/upload) are streamed by their own handler.
    if (req.method === 'POST' && type === 'multipart/form-data' && /\/upload\/?$/.test(req.path)) return next()
    try {
      const raw = await readRaw(req, limit)
      if (raw.length === 0 && req.method === 'POST' && type === '') {
        req.body = undefined
        return next()
      }
      const accepted = req.method === 'PATCH' ? PATCH_TYPES : POST_TYPES
      if (!accepted.includes(type)) {
        throw new HttpError(415, `The content-type "${type || '(none)'}" is not supported. Supported MIME types are "${accepted.join('", "')}".`)
      }
      try {
        req.body = raw.length === 0 ? undefined : JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, ''))
      } catch {
        throw badRequest('Syntax error: the request body is not valid JSON.')
      }
      next()
    } catch (error) {
      next(error)
    }
  }
}

function readRaw(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let ended = false
    // Past the limit the rest is drained and dropped, so a 413 can still be answered.
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) chunks.push(chunk)
    })
    req.on('end', () => {
      ended = true
      if (size > limit) reject(new HttpError(413, 'Request body too large.'))
      else resolve(Buffer.concat(chunks as unknown as Uint8Array[]))
    })
    // A client that goes away mid-body (or sends less than its Content-Length) is a bad request, not a crash.
    req.on('close', () => {
      if (!ended) reject(badRequest('The request body was not received completely.'))
    })
    req.on('error', () => reject(badRequest('The request body could not be read.')))
  })
}

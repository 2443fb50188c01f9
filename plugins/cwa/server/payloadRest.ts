import type { NextFunction, Request, Response } from 'express'
import { Readable } from 'node:stream'
import { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { handleEndpoints, type Payload } from 'payload'
import { crossSiteWriteRefusal } from '../hydra/crossSite.js'
import { originAllowed } from '../hydra/pipeline/handle.js'
import { apiRuntime } from '../hydra/pipeline/runtime.js'
import { fetchHeaders } from './nodeRequest.js'
import { checkMultipartPayload, documentWrite, documentWriteBody } from './payloadRestContentType.js'
import {
  checkRestBody,
  checkRestQuery,
  multipartPayloadField,
  readRestBody,
  RestInputError,
} from './payloadRestInput.js'

/** A refusal in Payload's own error shape. */
function refuse(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status)
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
  res.json({ errors: [{ message }] })
}

/** Whether bytes sit on an ArrayBuffer (not a SharedArrayBuffer), as a Fetch body's must: a Buffer's do. */
const onArrayBuffer = (bytes: Buffer): bytes is Buffer & Uint8Array<ArrayBuffer> => bytes.buffer instanceof ArrayBuffer

/**
 * Payload's own REST API (/api) inside Express: the Express request becomes
 * a Fetch Request and the Fetch Response is copied back, every Set-Cookie
 * included. Before Payload sees it, the request is held to the JSON-LD
 * API's rules: a cross-site write is refused (403), the query is checked
 * (400 for what the database cannot process), the body is read with the
 * same limits (64 KiB anonymous, 21 MiB signed in: 413) and no deeper than
 * 64 levels of JSON (400); a document write's body is JSON under any of
 * its names or multipart, else a 415 (payloadRestContentType.ts). Mounted
 * before any body parser.
 */
export function payloadRestHandler(payload: Payload, cacheKey = 'default') {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const url = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`
      const headers = fetchHeaders(req)
      const refusal = crossSiteWriteRefusal(req.method, headers, payload, (origin) =>
        originAllowed(apiRuntime(payload), origin),
      )
      if (refusal) return refuse(res, 403, refusal)
      const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers }
      try {
        checkRestQuery(
          payload,
          req.path,
          req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '',
        )
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          const signedIn = async () =>
            Boolean((await payload.auth({ headers, canSetHeaders: false }).catch(() => null))?.user)
          let body = await readRestBody(req, headers, signedIn)
          checkRestBody(payload, req.path, body, headers)
          const write = documentWrite(payload, req.method, req.path, headers)
          if (write) {
            body = documentWriteBody(req.method, body, headers)
            const contentType = headers.get('content-type') ?? ''
            if (/^multipart\/form-data/i.test(contentType))
              checkMultipartPayload(multipartPayloadField(body, contentType), write)
          }
          init.body = onArrayBuffer(body) ? body : new Uint8Array(body)
        }
      } catch (error) {
        if (error instanceof RestInputError) return refuse(res, error.status, error.message, error.headers)
        throw error
      }
      const response = await handleEndpoints({
        config: payload.config,
        payloadInstanceCacheKey: cacheKey,
        request: new Request(url, init),
      })
      res.status(response.status)
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length' && name !== 'content-encoding')
          res.setHeader(name, value)
      })
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) res.setHeader('Set-Cookie', cookies)
      if (!response.body) return void res.end()
      // Node's Response streams its body as a node:stream/web ReadableStream, the type Readable.fromWeb takes.
      const stream =
        response.body instanceof NodeReadableStream ? Readable.fromWeb(response.body) : Readable.from(response.body)
      stream.pipe(res)
    } catch (error) {
      next(error)
    }
  }
}

/** The getPayload cache key of an instance (Payload's REST handler must use the same one). */
export const payloadKeys = new WeakMap<Payload, string>()

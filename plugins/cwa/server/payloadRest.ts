import type { NextFunction, Request, Response } from 'express'
import { Readable } from 'node:stream'
import { handleEndpoints, type Payload } from 'payload'
import { fetchHeaders } from './nodeRequest'

/**
 * Payload's own REST API (/api) inside Express: the Express request becomes
 * a Fetch Request (body streamed, so this is mounted before any body
 * parser) and the Fetch Response is copied back, every Set-Cookie included.
 */
export function payloadRestHandler(payload: Payload, cacheKey = 'default') {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const url = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`
      const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers: fetchHeaders(req) }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        init.body = Readable.toWeb(req) as unknown as ReadableStream
        init.duplex = 'half'
      }
      const response = await handleEndpoints({
        config: payload.config,
        payloadInstanceCacheKey: cacheKey,
        request: new Request(url, init),
      })
      res.status(response.status)
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length' && name !== 'content-encoding') res.setHeader(name, value)
      })
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) res.setHeader('Set-Cookie', cookies)
      if (!response.body) return void res.end()
      Readable.fromWeb(response.body as never).pipe(res)
    } catch (error) {
      next(error)
    }
  }
}

/** The getPayload cache key of an instance (Payload's REST handler must use the same one). */
export const payloadKeys = new WeakMap<Payload, string>()

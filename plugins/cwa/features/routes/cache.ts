import type { NextFunction, Request, Response } from 'express'
import type { Payload } from 'payload'
import { getOptions } from '../../hydra/registry'
import { nextGoLive } from './liveness'

/** Paths (under the API prefix) of route, page, page data and manifest reads. */
const CACHED = /^\/(_\/routes|_\/pages|_\/resource_manifest|page_data)(\/|$)/

/**
 * Caps `max-age` and `s-maxage` of a Cache-Control value at `limit` seconds
 * (never negative); other directives are kept.
 */
export function capCacheControl(value: string, limit: number): string {
  const cap = Math.max(0, Math.floor(limit))
  return value.replace(/\b(max-age|s-maxage)=(\d+)/gi, (_match, name: string, seconds: string) => `${name}=${Math.min(Number(seconds), cap)}`)
}

/**
 * Anonymous GETs of routes, pages, page data and the manifest: sets
 * `max-age` / `s-maxage` from the httpCache option, and caps whatever
 * max-age the response carries (set here or by a handler) at the soonest
 * go-live date still to come, so no cache serves a page past the moment a
 * scheduled route goes live (nothing runs at that moment). Response-level:
 * applied as headers are written, for every handler under these paths.
 */
export function anonymousCacheLifetime(payload: Payload) {
  const { httpCache } = getOptions(payload.config)
  const configured = httpCache.maxAge !== null || httpCache.sharedMaxAge !== null
  return async (req: Request, response: Response, next: NextFunction) => {
    if (!configured || (req.method !== 'GET' && req.method !== 'HEAD') || response.locals.user || !CACHED.test(req.path)) return next()
    try {
      const now = new Date()
      const goLive = await nextGoLive(payload, undefined, now)
      const limit = goLive ? Math.ceil((goLive.getTime() - now.getTime()) / 1000) : null
      const writeHead = response.writeHead
      response.writeHead = function patchedWriteHead(this: Response, ...args: unknown[]) {
        if (response.statusCode === 200 && !response.getHeader('Cache-Control')) {
          const directives = ['public']
          if (httpCache.maxAge !== null) directives.push(`max-age=${httpCache.maxAge}`)
          if (httpCache.sharedMaxAge !== null) directives.push(`s-maxage=${httpCache.sharedMaxAge}`)
          response.setHeader('Cache-Control', directives.join(', '))
        }
        const current = response.getHeader('Cache-Control')
        if (limit !== null && typeof current === 'string') response.setHeader('Cache-Control', capCacheControl(current, limit))
        return (writeHead as (...a: unknown[]) => Response).apply(this, args)
      } as typeof response.writeHead
      next()
    } catch (error) {
      next(error)
    }
  }
}

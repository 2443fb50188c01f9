import { Readable } from 'node:stream'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import type { Payload } from 'payload'
import { getOptions } from '../core/registry.js'
import { embeddedHubMiddleware, HUB_PATH } from '../features/realtime/index.js'
import { handleApiRequest, type IncomingApiRequest } from '../hydra/pipeline/handle.js'
import { type JwtKeys, useJwtKeys } from '../session/index.js'
import { fetchHeaders, requestUrl } from './nodeRequest.js'
import { payloadKeys, payloadRestHandler } from './payloadRest.js'
import { withRequestReads } from './primaryReads.js'

function incomingFromExpress(req: Request): IncomingApiRequest {
  // The Node request is an async iterable of its body's chunks: read only by endpoints that take a body.
  const rawPath = req.originalUrl.split('?')[0]!
  return {
    method: req.method,
    url: requestUrl(req),
    rawPath: rawPath.startsWith('/') ? rawPath : `/${rawPath}`,
    headers: fetchHeaders(req),
    body: req,
  }
}

/**
 * The JSON-LD API as Express middleware (mount it at the root: it serves
 * the API prefix and the root endpoints such as /sitemap.xml, and hands
 * every other URL on).
 */
export function cwaExpress(payload: Payload) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const response = await handleApiRequest(payload, incomingFromExpress(req))
      if (!response) return next()
      res.status(response.status)
      for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value)
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) res.setHeader('Set-Cookie', cookies)
      if (response.body instanceof Readable) {
        // A file: sent as it is read; a storage that fails mid-way cuts the connection (the headers are gone).
        response.body.on('error', () => res.destroy())
        response.body.pipe(res)
        return
      }
      res.end(response.body ?? undefined)
    } catch (error) {
      next(error)
    }
  }
}

export interface AppOptions {
  payload: Payload
  /** The JWT key pair; default: the environment's (see the session layer). */
  keys?: JwtKeys
  /** Next.js request handler serving /admin (and its assets); omitted in tests. */
  admin?: (req: Request, res: Response) => Promise<void>
}

/**
 * An Express application: Payload's REST API at /api, the JSON-LD API at
 * the API prefix (and its root endpoints), the embedded Mercure hub at
 * /.well-known/mercure once `startEmbeddedHub` started it, and the admin
 * panel (Next.js) for everything else.
 */
export function createApp({ payload, keys, admin }: AppOptions): Express {
  if (keys) useJwtKeys(payload, keys)
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', process.env.TRUST_PROXY ?? 'loopback')
  app.set('query parser', 'simple')
  // First: its streams stay open and touch no database (no read routing needed).
  app.use(HUB_PATH, embeddedHubMiddleware(payload))
  // With read replicas: a signed-in or writing request reads from the primary, for every API below.
  app.use((req, _res, next) => withRequestReads(payload, req.method, (name) => req.get(name), next))
  app.use(payload.config.routes.api, payloadRestHandler(payload, payloadKeys.get(payload) ?? 'default'))
  app.use(cwaExpress(payload))
  if (admin) {
    const landing = orphanAlertLanding(payload)
    if (landing) app.get(landing, (_req, res) => res.redirect(302, `${payload.config.routes.admin}/cwa/orphaned`))
    app.use((req, res) => void admin(req, res))
  }
  return app
}

/**
 * The orphan alert e-mail's button opens `orphanedResources.notify.adminPagePath`
 * (default `/_cwa/orphaned`, the contract's) on `user.emailLinks.defaultOrigin`.
 * When that origin is this site, the path lands on the admin panel's orphan
 * view; a path already under the admin route is served by the admin itself,
 * and an absolute URL points elsewhere.
 */
function orphanAlertLanding(payload: Payload): string | null {
  const path = getOptions(payload.config).orphanedResources.notify.adminPagePath
  return !path.startsWith('/') || path.startsWith(`${payload.config.routes.admin}/`) ? null : path
}

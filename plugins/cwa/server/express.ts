import express, { type Express, type Request, type Response } from 'express'
import type { Payload } from 'payload'
import { createHydraRouter } from '../hydra/router'
import { getOptions } from '../hydra/registry'
import { JwtService } from '../session/jwt'
import type { JwtKeys } from '../session/keys'
import { RefreshTokenStore } from '../session/refreshTokens'
import { payloadKeys } from '../../../src/server/bootstrap'
import { payloadRestHandler } from './payloadRest'
import { sitemapHandler } from '../features/routes/sitemap'

export interface AppOptions {
  payload: Payload
  keys: JwtKeys
  /** Next.js request handler serving /admin (and its assets); omitted in tests. */
  admin?: (req: Request, res: Response) => Promise<void>
}

/**
 * The Express application: Payload's REST API at /api, the JSON-LD API at
 * the API prefix, and the admin panel (Next.js) for everything else.
 */
export function createApp({ payload, keys, admin }: AppOptions): Express {
  const options = getOptions(payload.config)
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', process.env.TRUST_PROXY ?? 'loopback')
  app.set('query parser', 'simple')

  const services = {
    jwt: new JwtService(keys, options.session.tokenTtl),
    refreshTokens: new RefreshTokenStore(payload, options.session.refreshTtl),
  }
  app.use(payload.config.routes.api, payloadRestHandler(payload, payloadKeys.get(payload) ?? 'default'))
  app.get('/sitemap.xml', sitemapHandler(payload))
  app.use(options.apiPrefix || '/', createHydraRouter(payload, services))
  if (admin) app.use((req, res) => void admin(req, res))
  return app
}

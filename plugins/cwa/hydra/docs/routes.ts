import express, { type Router } from 'express'
import type { Payload } from 'payload'
import { configExtensions } from '../extension'
import { JSONLD } from '../http'
import { getOptions, getRegistry } from '../registry'
import { docsHtml, docsInitScript, swaggerAssetsDir } from './html'
import { hydraDocumentation } from './hydraDocumentation'
import { openApiDocument } from './openapi'

/** GET /docs (HTML), /docs.json (OpenAPI 3.1), /docs.jsonld (Hydra ApiDocumentation), /docs/assets/*. */
export function docsRoutes(payload: Payload): Router {
  const registry = getRegistry(payload.config)
  const { apiPrefix, websiteName, session } = getOptions(payload.config)
  const extensions = configExtensions(payload.config)
  const router = express.Router()
  const baseUrl = (req: express.Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`

  router.get('/docs.json', (req, response) => {
    const info = { title: `${websiteName} API`, version: '2.0.0-alpha', serverUrl: baseUrl(req), cookieName: session.cookieName }
    const doc = openApiDocument(registry, info, extensions)
    response.type('application/vnd.openapi+json; charset=utf-8').send(JSON.stringify(doc))
  })
  router.get('/docs.jsonld', (req, response) => {
    response.type(JSONLD).send(JSON.stringify(hydraDocumentation(registry, baseUrl(req))))
  })
  router.get('/docs/assets/init.js', (_req, response) => {
    response.type('application/javascript').send(docsInitScript(apiPrefix))
  })
  // Only the files the page uses: not the package's own index.html (Petstore) or source maps.
  const assets = express.static(swaggerAssetsDir(), { index: false, maxAge: '1d' })
  const served = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/favicon-32x32.png', '/favicon-16x16.png'])
  router.use('/docs/assets', (req, response, next) => (served.has(req.path) ? assets(req, response, next) : next()))
  router.get('/docs', (_req, response) => {
    response.type('html').send(docsHtml({ apiPrefix, title: `${websiteName} API` }))
  })
  return router
}

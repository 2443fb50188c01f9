import express, { type NextFunction, type Request, type Response, type Router } from 'express'
import type { Payload } from 'payload'
import { sessionRoutes, type SessionServices, sessionMiddleware } from '../session/routes'
import { entrypoint } from './entrypoint'
import { configExtensions } from './extension'
import { HttpError, notFound, unauthorized } from './errors'
import { handle, hydraErrorHandler, jsonBody, JSONLD } from './http'
import { entrypointContext, errorContext, resourceContext } from './jsonldContext'
import { createItem, deleteItem, getCollection, getItem, updateItem } from './operations'
import { getOptions, getRegistry, type Resource } from './registry'
import { docsRoutes } from './docs/routes'

/** Paths that accept writes from anonymous callers (matched on the path under the API prefix). */
function isPublicWrite(method: string, path: string): boolean {
  if (path === '/login' || path === '/token/refresh' || path === '/logout') return true
  // Submits are open to anyone; other methods reach the handler too, so that they get 405 (no PUT on /submit), not 401.
  if (/^\/component\/forms\/[^/]+\/submit$/.test(path)) return true
  if (method === 'POST' && path === '/users') return true // registration: decided by the user resource's access
  return false
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The same URL answers differently per caller (drafts for editors, live
 * records for the public): shared caches must key on the credentials, and
 * never store what a signed-in caller received.
 */
function callerDependentCaching(_req: Request, response: Response, next: NextFunction) {
  response.setHeader('Vary', 'Cookie, Authorization')
  if (response.locals.user) response.setHeader('Cache-Control', 'private, no-store')
  next()
}

/** Advertises the Hydra API documentation on every response (cross-cutting, not per handler). */
function apiDocumentationLink(prefix: string) {
  return (req: Request, response: Response, next: NextFunction) => {
    const base = `${req.protocol}://${req.get('host') ?? 'localhost'}`
    response.setHeader('Link', `<${base}${prefix}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`)
    next()
  }
}

/**
 * The JSON-LD API, mounted at the API prefix. Each resource of the registry
 * gets its collection and item operations; sessions, contexts, docs and the
 * entrypoint sit beside them.
 */
export function createHydraRouter(payload: Payload, services: SessionServices): Router {
  const registry = getRegistry(payload.config)
  const options = getOptions(payload.config)
  const router = express.Router({ strict: false })

  router.use(apiDocumentationLink(options.apiPrefix))
  router.use(sessionMiddleware(services, options))
  router.use(callerDependentCaching)
  router.use((req, response, next) => {
    if (SAFE.has(req.method) || response.locals.user) return next()
    if (isPublicWrite(req.method, req.path.replace(/\/+$/, ''))) return next()
    next(unauthorized())
  })
  router.use(jsonBody())

  router.get('/', (req, response) => {
    response.type(JSONLD).send(JSON.stringify(entrypoint(registry)))
  })
  router.get('/contexts/:type', (req, response, next) => {
    const base = `${req.protocol}://${req.get('host') ?? 'localhost'}`
    const type = String(req.params.type).replace(/\.jsonld$/, '')
    const resource = registry.byShortName(type)
    const body =
      type === 'Entrypoint'
        ? entrypointContext(registry, base)
        : type === 'Error' || type === 'ConstraintViolation'
          ? errorContext(type, registry, base)
          : resource
            ? resourceContext(resource, registry, base)
            : null
    if (!body) return next(notFound(`No context for "${type}".`))
    response.type(JSONLD).send(JSON.stringify(body))
  })
  router.use(docsRoutes(payload))
  router.use(sessionRoutes(payload, services))
  for (const extension of configExtensions(payload.config)) extension.mount?.(router, payload)

  for (const resource of registry.all()) mountResource(router, payload, resource)

  router.use((_req, _response, next) => next(notFound('No route matches this path.')))
  router.use(hydraErrorHandler(payload))
  return router
}

function methodNotAllowed(allowed: string[]) {
  return (_req: Request, response: Response, next: NextFunction) => {
    response.setHeader('Allow', allowed.join(', '))
    next(new HttpError(405, 'Method Not Allowed'))
  }
}

function mountResource(router: Router, payload: Payload, resource: Resource): void {
  const base = `${resource.meta.pathPrefix}/${resource.meta.segment}`
  router.get(base, handle(payload, (ctx) => getCollection(resource, ctx)))
  router.post(base, handle(payload, (ctx, req) => createItem(resource, req.body, ctx)))
  router.all(base, methodNotAllowed(['GET', 'POST']))
  const item = `${base}/:id`
  router.get(item, handle(payload, (ctx, req) => getItem(resource, String(req.params.id), ctx)))
  router.patch(item, handle(payload, (ctx, req) => updateItem(resource, String(req.params.id), req.body, ctx)))
  router.delete(item, handle(payload, (ctx, req) => deleteItem(resource, String(req.params.id), ctx)))
  router.all(item, methodNotAllowed(['GET', 'PATCH', 'DELETE']))
}

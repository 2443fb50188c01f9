import type { HydraContext } from '../../hydra/context.js'
import { type ApiRequest, type Endpoint, type EndpointResult, fieldsOf } from '../../hydra/endpoint.js'
import { notFound } from '../../hydra/errors.js'
import { callEndpoint } from '../../hydra/pipeline/invoke.js'
import { apiRuntime } from '../../hydra/pipeline/runtime.js'
import type { OpenApiKit } from '../../hydra/docs/openapi/kit.js'
import { submitForm } from '../forms/index.js'
import { findRouteByPath } from '../routes/index.js'
import { redirectedFrom } from './redirects.js'

/**
 * The endpoints the CWA Nuxt module calls that the contract names
 * otherwise. Each answers through the contract's own endpoint (looked up
 * in the endpoint table), so there is one implementation of each.
 */

/** Runs the endpoint the table holds for this method and path, with this request's context (and that endpoint's security, serializer and cache policy). */
async function delegate(
  ctx: HydraContext,
  request: ApiRequest,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
): Promise<EndpointResult> {
  const found = apiRuntime(ctx.payload).table.lookup(method, path, false)
  if (found.kind !== 'found') throw notFound()
  return callEndpoint(ctx, found.match.endpoint, { ...request, method, params: found.match.params })
}

/** `//blog` or `%2Fblog` (a path-shaped route IRI's tail) as the route path `/blog`; null for anything else (a UUID). */
function routePathOf(raw: string): string | null {
  let value = raw
  try {
    value = decodeURIComponent(raw)
  } catch {
    return null
  }
  return value.startsWith('/') ? value : null
}

interface ManifestNode {
  iri: string
  children?: ManifestNode[]
}

/** The resource manifest's trees, flattened depth first (roots first, no repeats), as the module reads `resource_iris`. */
export function flattenManifest(trees: ManifestNode[]): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  const visit = (node: ManifestNode) => {
    if (!seen.has(node.iri)) {
      seen.add(node.iri)
      out.push(node.iri)
    }
    for (const child of node.children ?? []) visit(child)
  }
  for (const tree of trees) visit(tree)
  return out
}

const doc =
  (operationId: string, summary: string, description: string, tags: string[], { noContent = false } = {}) =>
  // Its path parameters as the endpoint declares them (paramDocs), in the template's order.
  (kit: OpenApiKit, params: Record<string, unknown>) => ({
    operation: {
      operationId,
      tags,
      summary,
      description,
      security: kit.security(true),
      parameters: Object.values(params),
      responses: {
        ...(noContent
          ? { 204: { description: 'Deleted' } }
          : {
              200: {
                description: "As the contract's endpoint answers",
                content: { [kit.media.jsonld]: { schema: { type: 'object' } } },
              },
            }),
        ...kit.errorResponses(401, 403, 404),
      },
    },
  })

const routeParameter = { route: { description: 'A route path written after the segment (`//blog`)' } }

/**
 * The module's password reset: PATCH (application/json) with the root key
 * `password_update` and the token as `plainNewPasswordConfirmationToken`.
 * Read as the built-in `password_reset` form's full submit (throttled like
 * every anonymous full submit), so it never reaches the signed-in
 * `change_password` form that owns the name `password_update`. Any other
 * body is the contract's field validation of `password_reset`.
 */
async function passwordReset(ctx: HydraContext, request: ApiRequest): Promise<EndpointResult> {
  const update = (request.body as { password_update?: unknown } | undefined)?.password_update
  if (update && typeof update === 'object' && !Array.isArray(update)) {
    const { username, plainNewPasswordConfirmationToken, plainPassword } = update as Record<string, unknown>
    const body = { password_reset: { username, token: plainNewPasswordConfirmationToken, plainPassword } }
    return delegate(ctx, { ...request, body }, 'POST', '/component/forms/password_reset/submit')
  }
  return submitForm(ctx, 'password_reset', request.body, { partial: true })
}

export function compatEndpoints(hasForms: boolean): Endpoint[] {
  return [
    ...(hasForms
      ? [
          {
            method: 'PATCH' as const,
            path: '/component/forms/password_reset/submit',
            security: 'public' as const,
            bodyTypes: ['application/merge-patch+json', 'application/json'],
            handler: passwordReset,
            docs: doc(
              'patchPasswordResetCompat',
              "Resets a password the CWA Nuxt module's way (cwa-nuxt profile).",
              'Body {password_update: {username, plainNewPasswordConfirmationToken, plainPassword: {first, second}}} (application/json or merge-patch): a full submit of the password_reset form. Any other body: field validation, as PATCH {form}/submit.',
              ['Form'],
            ),
          },
        ]
      : []),
    {
      method: 'GET',
      path: '/.jsonld',
      handler: (ctx, request) => delegate(ctx, request, 'GET', '/'),
      docs: doc('getEntrypointJsonld', 'The entrypoint (cwa-nuxt profile).', 'Answers as GET {prefix}/.', [
        'Entrypoint',
      ]),
    },
    {
      method: 'GET',
      path: '/logout',
      security: 'public',
      handler: (ctx, request) => delegate(ctx, request, 'POST', '/logout'),
      docs: doc(
        'getLogout',
        'Ends the session (cwa-nuxt profile).',
        'As POST {prefix}/logout: the refresh token is revoked and the session cookies cleared.',
        ['Session'],
      ),
    },
    {
      method: 'GET',
      path: '/_/routes_manifest/{route+}',
      paramDocs: routeParameter,
      handler: async (ctx, request) => {
        const result = await delegate(ctx, request, 'GET', `/_/resource_manifest/${request.params.route!}`)
        const trees = ((result.body as { resource_iris?: ManifestNode[] } | undefined)?.resource_iris ??
          []) as ManifestNode[]
        return { ...fieldsOf(result), body: { resource_iris: flattenManifest(trees) } }
      },
      docs: doc(
        'getRoutesManifest',
        'The resource manifest as a flat list (cwa-nuxt profile).',
        'The IRIs of GET {prefix}/_/resource_manifest/{route}, depth first, each once: resource_iris is a list of strings.',
        ['Route'],
      ),
    },
    {
      method: 'GET',
      path: '/_/routes/{route+}/redirects',
      paramDocs: routeParameter,
      handler: async (ctx, request) => {
        const result = await delegate(ctx, request, 'GET', `/_/routes/${request.params.route!}`)
        const route = result.item
        if (result.status !== 200 || !route) return result
        const also = { ...route.with, redirectedFrom: await redirectedFrom(ctx, String(route.doc.id)) }
        return { ...result, item: { ...route, with: also } }
      },
      docs: doc(
        'getRouteRedirects',
        'A route with the routes redirecting to it (cwa-nuxt profile).',
        'The route as GET {prefix}/_/routes/{route} answers it, plus redirectedFrom: the routes redirecting to it, embedded (@id, @type, path), each with its own redirectedFrom. redirectedRoutes lists their IRIs as without the profile.',
        ['Route'],
      ),
    },
    {
      // The module deletes a route (a redirect in its redirects tree) by its IRI as served: path-shaped.
      method: 'DELETE',
      path: '/_/routes/{route+}',
      paramDocs: routeParameter,
      handler: async (ctx, request) => {
        const path = routePathOf(request.params.route!)
        if (path === null) return delegate(ctx, request, 'DELETE', `/_/routes/${request.params.route!}`)
        const route = await findRouteByPath(ctx, path)
        if (!route) throw notFound()
        return delegate(ctx, request, 'DELETE', `/_/routes/${String(route.id)}`)
      },
      docs: doc(
        'deleteRouteByPath',
        'Deletes a route named by its path (cwa-nuxt profile).',
        'As DELETE {prefix}/_/routes/{id}, for the route at this path (`//old-blog`, or `%2Fold-blog`).',
        ['Route'],
        { noContent: true },
      ),
    },
  ]
}

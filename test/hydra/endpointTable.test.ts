/**
 * One declaration per endpoint: the router's table and the OpenAPI document
 * are built from the same declarations, so they list the same operations;
 * and the table matches by specificity, never by declaration order.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import type { SanitizedConfig } from 'payload'
import { documentedPath, openApiDocument } from '../../plugins/cwa/dist/hydra/docs/openapi/index.js'
import type { Endpoint } from '../../plugins/cwa/dist/hydra/endpoint.js'
import { HttpError } from '../../plugins/cwa/dist/hydra/errors.js'
import { allExtensions } from '../../plugins/cwa/dist/hydra/extensions/index.js'
import { apiEndpoints } from '../../plugins/cwa/dist/hydra/pipeline/runtime.js'
import { EndpointTable } from '../../plugins/cwa/dist/hydra/pipeline/table.js'
import { getRegistry } from '../../plugins/cwa/dist/core/registry.js'
import { sessionSecuritySchemes } from '../../plugins/cwa/dist/session/index.js'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']
const UUID = '0b3f1d9e-7a6b-4a5c-9d8e-1f2a3b4c5d6e'

let config: SanitizedConfig
let endpoints: Endpoint[]

beforeAll(async () => {
  config = await (await import('../../payload.config')).default
  endpoints = apiEndpoints(getRegistry(config), allExtensions(config))
})

describe('the endpoint table and the OpenAPI document', () => {
  it('list the same operations: nothing undocumented, no documentation of a missing endpoint', () => {
    const registry = getRegistry(config)
    const extensions = allExtensions(config)
    const document = openApiDocument(
      registry,
      { title: 'T', version: '1', securitySchemes: sessionSecuritySchemes(resolveOptions({})) },
      extensions,
      endpoints,
    )
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((key) => HTTP_METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    const declared = endpoints.flatMap((e) =>
      e.root || typeof e.docs !== 'function' ? [] : [`${e.method} ${documentedPath(registry.apiPrefix, e)}`],
    )
    expect(new Set(declared).size).toBe(declared.length) // two endpoints never share one documented operation
    expect([...documented].sort()).toEqual([...declared].sort())
  })

  it('says why each undocumented endpoint has no description', () => {
    const undocumented = endpoints
      .filter((e) => typeof e.docs !== 'function')
      .map((e) => [`${e.method} ${e.path}`, (e.docs as { undocumented: string }).undocumented])
    for (const [, reason] of undocumented) expect(reason!.length).toBeGreaterThan(10)
    expect(undocumented.map(([key]) => key).sort()).toEqual([
      'GET /docs',
      'GET /docs.json',
      'GET /docs.jsonld',
      'GET /docs/assets/{file}',
      'GET /sitemap.xml',
    ])
  })

  it('covers the endpoint families a newcomer looks for', () => {
    const keys = new Set(endpoints.map((e) => `${e.method} ${e.path}`))
    for (const key of [
      'POST /_/publish',
      'POST /login',
      'POST /token/refresh',
      'POST /logout',
      'GET /me',
      'POST /_/routes/generate',
      'GET /_/resource_manifest/{route+}',
      'POST /component/forms/{id}/submit',
      'GET /verify-email/{username}/{token}',
    ]) {
      expect([key, keys.has(key)]).toEqual([key, true])
    }
  })
})

describe('matching', () => {
  const noop = async () => ({ status: 204 })
  const declare = (method: Endpoint['method'], path: string, extra: Partial<Endpoint> = {}): Endpoint => ({
    method,
    path,
    handler: noop,
    docs: { undocumented: 'a test endpoint' },
    ...extra,
  })
  const isUuid = (v: string) => /^[0-9a-f-]{36}$/i.test(v)
  const table = () => [
    declare('GET', '/_/routes/{id}'),
    declare('PATCH', '/_/routes/{id}'),
    declare('DELETE', '/_/routes/{id}'),
    declare('GET', '/_/routes/{path+}', { params: { path: (v) => !isUuid(v) } }),
    declare('GET', '/_/routes/{path+}/children'),
    declare('POST', '/_/routes/generate'),
    declare('POST', '/forms/{id}/submit', { security: 'public' }),
    declare('PATCH', '/forms/{id}/submit', { security: 'public' }),
    declare('GET', '/forms/{id}'),
    declare('GET', '/forms/password_reset'),
    declare('GET', '/verify/{username}/{token}'),
  ]
  const shuffled = (list: Endpoint[], seed: number) =>
    [...list].sort(
      (a, b) => ((a.path.length * seed + a.method.length) % 7) - ((b.path.length * seed + b.method.length) % 7),
    )
  const cases: Array<[string, string, string]> = [
    ['GET', `/_/routes/${UUID}`, 'GET /_/routes/{id}'],
    ['GET', '/_/routes//blog', 'GET /_/routes/{path+}'],
    ['GET', '/_/routes/blog', 'GET /_/routes/{path+}'],
    ['GET', '/_/routes//blog/children', 'GET /_/routes/{path+}/children'],
    ['POST', '/_/routes/generate', 'POST /_/routes/generate'],
    ['GET', '/forms/password_reset', 'GET /forms/password_reset'],
    ['GET', `/forms/${UUID}`, 'GET /forms/{id}'],
    ['PATCH', `/forms/${UUID}/submit/`, 'PATCH /forms/{id}/submit'],
  ]

  it('picks the most specific endpoint whatever the declaration order', () => {
    for (const seed of [1, 2, 3, 5]) {
      const endpointTable = new EndpointTable(shuffled(table(), seed))
      for (const [method, path, expected] of cases) {
        const found = endpointTable.lookup(method, path, false)
        expect([
          seed,
          method,
          path,
          found.kind === 'found' ? `${found.match.endpoint.method} ${found.match.endpoint.path}` : found.kind,
        ]).toEqual([seed, method, path, expected])
      }
    }
  })

  it('reads parameters: one segment decoded, the rest of the path as sent', () => {
    const endpointTable = new EndpointTable(table())
    const verify = endpointTable.lookup('GET', '/verify/j%C3%B6rg/a%2Fb', false)
    expect(verify.kind === 'found' && verify.match.params).toEqual({ username: 'jörg', token: 'a/b' })
    const route = endpointTable.lookup('GET', '/_/routes/%2Fblog%2Fpost', false)
    expect(route.kind === 'found' && route.match.params).toEqual({ path: '%2Fblog%2Fpost' })
    expect(() => endpointTable.lookup('GET', '/verify/%E0%A4%A/x', false)).toThrow(HttpError)
  })

  it('answers a known path with another method by the methods it has; public when every endpoint of the path is', () => {
    const endpointTable = new EndpointTable(table())
    expect(endpointTable.lookup('PUT', `/_/routes/${UUID}`, false)).toEqual({
      kind: 'method',
      allowed: ['GET', 'PATCH', 'DELETE'],
      publicWrite: false,
    })
    expect(endpointTable.lookup('PUT', `/forms/${UUID}/submit`, false)).toEqual({
      kind: 'method',
      allowed: ['POST', 'PATCH'],
      publicWrite: true,
    })
    expect(endpointTable.lookup('GET', '/nothing/here', false)).toEqual({ kind: 'none' })
    expect(endpointTable.lookup('HEAD', `/forms/${UUID}`, false).kind).toBe('found')
  })

  it('prefers one segment to the rest of a path, whatever the order', () => {
    for (const order of [
      [declare('GET', '/a/{x}'), declare('GET', '/a/{y+}')],
      [declare('GET', '/a/{y+}'), declare('GET', '/a/{x}')],
    ]) {
      const endpointTable = new EndpointTable(order)
      const one = endpointTable.lookup('GET', '/a/b', false)
      const rest = endpointTable.lookup('GET', '/a/b/c', false)
      expect(one.kind === 'found' && one.match.endpoint.path).toBe('/a/{x}')
      expect(rest.kind === 'found' && rest.match.endpoint.path).toBe('/a/{y+}')
    }
  })

  it('refuses two endpoints that would answer the same requests alike', () => {
    expect(() => new EndpointTable([declare('GET', '/a/{id}'), declare('GET', '/a/{other}')])).toThrow(/alike/)
    expect(
      () => new EndpointTable([declare('GET', '/a/{id}'), declare('GET', '/a/{id}', { root: true })]),
    ).not.toThrow()
  })

  it('drops a generic endpoint another one supersedes, and refuses superseding what does not exist', () => {
    const registry = getRegistry(config)
    const routes = registry.bySlug('routes')!
    const itemPath = `${routes.meta.pathPrefix}/${routes.meta.segment}/{id}`
    const keys = endpoints.map((e) => `${e.method} ${e.path}`)
    expect(keys).not.toContain(`GET ${itemPath}`)
    expect(keys).not.toContain(`PATCH ${itemPath}`)
    expect(keys).toContain(`DELETE ${itemPath}`)
    const bogus = { name: 'bogus', endpoints: () => [declare('GET', '/x/{y+}', { supersedes: '/no/such/{id}' })] }
    expect(() => apiEndpoints(registry, [bogus])).toThrow(/does not exist/)
  })
})

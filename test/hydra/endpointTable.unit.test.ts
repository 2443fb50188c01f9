/**
 * Issue 38, the database-free tier: how the API's endpoint table (hydra/pipeline/table.ts) matches a path to an
 * endpoint template: parameters, specificity (never declaration order), 405 against 404, refused templates.
 */
import { describe, expect, it } from '@jest/globals'
import { EndpointTable } from '../../plugins/cwa/dist/hydra/pipeline/table.js'

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
interface Declared {
  method: Method
  path: string
  root?: boolean
  security?: 'public'
  params?: Record<string, (value: string) => boolean>
}

const table = (endpoints: Declared[]) => new EndpointTable(endpoints as never)
/** The path template of the endpoint a lookup found, and its parameters; or what it found instead. */
function found(t: EndpointTable, method: string, path: string, root = false) {
  const result = t.lookup(method, path, root)
  return result.kind === 'found' ? { path: result.match.endpoint.path, params: result.match.params } : result
}

const isUuid = (value: string) => /^[0-9a-f-]{36}$/.test(value)

describe('the endpoint table', () => {
  it('fills {name} with one decoded segment and {name+} with the rest of the path as sent; a trailing slash matches', () => {
    const t = table([
      { method: 'GET', path: '/component/{type}/{id}' },
      { method: 'GET', path: '/page/{path+}' },
    ])
    expect(found(t, 'GET', '/component/html%20contents/7')).toEqual({
      path: '/component/{type}/{id}',
      params: { type: 'html contents', id: '7' },
    })
    expect(found(t, 'GET', '/page/a%2Fb/c/')).toEqual({ path: '/page/{path+}', params: { path: 'a%2Fb/c/' } })
    expect(found(t, 'GET', '/component/x/7/')).toMatchObject({ params: { type: 'x', id: '7' } })
  })

  it('prefers more literal segments, then constrained parameters, then fewer rest parameters, whatever the order', () => {
    const declared: Declared[] = [
      { method: 'GET', path: '/{any+}' },
      { method: 'GET', path: '/_/{type}/{id}' },
      { method: 'GET', path: '/_/routes/{id}' },
      { method: 'GET', path: '/_/{type}/{uuid}', params: { uuid: isUuid } },
      { method: 'GET', path: '/_/routes/{rest+}' },
    ]
    for (const order of [declared, [...declared].reverse()]) {
      const t = table(order)
      expect(found(t, 'GET', '/_/routes/7')).toMatchObject({ path: '/_/routes/{id}' })
      expect(found(t, 'GET', '/_/routes/a/b')).toMatchObject({ path: '/_/routes/{rest+}' })
      expect(found(t, 'GET', '/_/layouts/0b7a2c1e-5d4f-4a3b-9c8d-7e6f5a4b3c2d')).toMatchObject({
        path: '/_/{type}/{uuid}',
      })
      expect(found(t, 'GET', '/_/layouts/7')).toMatchObject({ path: '/_/{type}/{id}' })
      expect(found(t, 'GET', '/elsewhere/deep')).toMatchObject({ path: '/{any+}' })
    }
  })

  it('answers HEAD with the GET endpoint; a path known with other methods is a 405 listing them, an unknown one none', () => {
    const t = table([
      { method: 'DELETE', path: '/_/routes/{id}' },
      { method: 'GET', path: '/_/routes/{id}' },
      { method: 'PATCH', path: '/_/routes/{id}' },
      { method: 'POST', path: '/login', security: 'public' },
    ])
    expect(found(t, 'HEAD', '/_/routes/7')).toMatchObject({ path: '/_/routes/{id}' })
    expect(t.lookup('PUT', '/_/routes/7', false)).toEqual({
      kind: 'method',
      allowed: ['GET', 'PATCH', 'DELETE'],
      publicWrite: false,
    })
    expect(t.lookup('GET', '/login', false)).toEqual({ kind: 'method', allowed: ['POST'], publicWrite: true })
    expect(t.lookup('GET', '/nothing/here', false)).toEqual({ kind: 'none' })
  })

  it('a constraint that does not hold hides the endpoint: the path is none of its business', () => {
    const t = table([{ method: 'GET', path: '/_/layouts/{id}', params: { id: isUuid } }])
    expect(t.lookup('GET', '/_/layouts/7', false)).toEqual({ kind: 'none' })
    expect(t.lookup('POST', '/_/layouts/7', false)).toEqual({ kind: 'none' })
  })

  it('keeps endpoints outside the API prefix (root) apart from those under it', () => {
    const t = table([
      { method: 'GET', path: '/sitemap.xml', root: true },
      { method: 'GET', path: '/docs' },
    ])
    expect(found(t, 'GET', '/sitemap.xml', true)).toMatchObject({ path: '/sitemap.xml' })
    expect(t.lookup('GET', '/sitemap.xml', false)).toEqual({ kind: 'none' })
    expect(t.lookup('GET', '/docs', true)).toEqual({ kind: 'none' })
    // A literal dot is a dot, not any character.
    expect(t.lookup('GET', '/sitemapxxml', true)).toEqual({ kind: 'none' })
  })

  it('a parameter of the chosen endpoint that is not valid percent-encoding is a 400', () => {
    const t = table([{ method: 'GET', path: '/_/routes/{id}' }])
    expect(() => t.lookup('GET', '/_/routes/%E0%A4%A', false)).toThrow(
      'The path segment "%E0%A4%A" is not valid percent-encoding.',
    )
  })

  it('refuses two templates that answer alike, and a parameter that fills part of a segment', () => {
    expect(() =>
      table([
        { method: 'GET', path: '/_/{type}/{id}' },
        { method: 'GET', path: '/_/{kind}/{key}/' },
      ]),
    ).toThrow('Two endpoints answer GET /_/{kind}/{key}/ alike (also /_/{type}/{id})')
    expect(() =>
      table([
        { method: 'GET', path: '/_/{type}/{id}' },
        { method: 'POST', path: '/_/{kind}/{key}' },
        { method: 'GET', path: '/_/{type}/{id}', root: true },
      ]),
    ).not.toThrow()
    expect(() => table([{ method: 'GET', path: '/docs/{name}.jsonld' }])).toThrow(
      'Endpoint template "/docs/{name}.jsonld": a parameter must fill a whole segment.',
    )
  })
})

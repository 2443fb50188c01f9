/**
 * Issue 25, what goes into the store: a plain read (a path, no query string, no `path` header) is stored at its
 * first miss; a variant (a query string, a `path` header) only at its second (`readModel.admitVariantsAfter`). The
 * attack guarded against: cache-busting reads (`?bust=<random>`, each sent once) filling the store and pushing the
 * site's own answers out of it, so every visitor pays Payload's path again.
 *
 * Issue 36: the same attack with other spellings of the site's own paths (a UUID in capitals, an escaped letter, a
 * trailing slash, `%2f` for `%2F`) and made-up `Host` headers (the site has no SERVER_URL here), which each had a
 * key of their own and were stored at their first miss: spellings the API answers alike share one key, the others
 * and unknown hosts are admitted as variants are and ranked below the site's answers, which they never evict.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { rawGet } from '../support/rawRequest'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

let server: TestServer
let component: string

/** A GET with the path as given and any `Host`; where its answer came from. */
async function raw(path: string, headers: Record<string, string> = {}) {
  const answer = await rawGet(server.url, path, { accept: 'application/ld+json', ...headers })
  return { status: answer.status, source: (answer.headers['cwa-read-model'] as string | undefined) ?? null }
}

const source = async (path: string, headers: Record<string, string> = {}) =>
  (await fetch(`${server.url}${path}`, { headers })).headers.get('cwa-read-model')
const stored = async (path: string) =>
  (await server.sql('SELECT count(*)::int AS n FROM _acb_read_model WHERE path = $1', [path]))[0].n as number
const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

beforeAll(async () => {
  server = await startTestServer({ options: { readModel: { maxEntries: 100 } } })
  const created = await server.payload.create({
    collection: 'html_contents',
    data: { html: '<p>admitted</p>', publishedAt: '2020-01-01T00:00:00.000Z' } as never,
  })
  component = String(created.id)
  const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'adm' } as never })
  const page = await server.payload.create({
    collection: 'pages',
    data: { reference: 'adm', title: 'A', layout: layout.id } as never,
  })
  await server.payload.create({ collection: 'routes', data: { path: '/adm/page', page: page.id } as never })
})
afterAll(async () => {
  await server?.close()
})

describe('admission to the read model', () => {
  it('stores a plain read at its first miss', async () => {
    expect(await source('/_api/component/html_contents')).toBe('miss')
    await waitFor(async () => (await stored('/component/html_contents')) === 1)
    expect(await source('/_api/component/html_contents')).toBe('hit')
  })

  it('stores a variant at its second miss: a query string, or a path header', async () => {
    const query = '/_api/component/html_contents?itemsPerPage=3'
    expect(await source(query)).toBe('miss')
    await settle()
    expect(await stored('/component/html_contents?itemsPerPage=3')).toBe(0)
    expect(await source(query)).toBe('miss')
    await waitFor(async () => (await stored('/component/html_contents?itemsPerPage=3')) === 1)
    expect(await source(query)).toBe('hit')

    const withPath = { path: '/some-page' }
    expect(await source('/_api/_/component_positions', withPath)).toBe('miss')
    expect(await source('/_api/_/component_positions', withPath)).toBe('miss')
    await waitFor(async () => (await stored('/_/component_positions')) === 1)
    expect(await source('/_api/_/component_positions', withPath)).toBe('hit')
  })

  it('attack: reads with a query string made up each time never fill the store nor push the site’s answers out', async () => {
    expect(await source('/_api/component/html_contents')).toBe('hit')
    for (let n = 0; n < 160; n++)
      expect(await source(`/_api/component/html_contents?bust=${n}-${Math.random()}`)).toBe('miss')
    await settle()
    expect((await server.sql(`SELECT count(*)::int AS n FROM _acb_read_model WHERE path LIKE '%bust=%'`))[0].n).toBe(0)
    // With the bound at 100, 160 stores would have evicted it (the least recently served).
    expect(await source('/_api/component/html_contents')).toBe('hit')
  })
})

describe('one key per resource, and strays that never evict the site’s answers', () => {
  const item = () => `/_api/component/html_contents/${component}`
  const route = '/_api/_/routes/%2Fadm%2Fpage'

  it('shares the key of spellings the API answers alike: a UUID in capitals, %2f for %2F', async () => {
    expect((await raw(item())).source).toMatch(/^(miss|hit)$/)
    await waitFor(async () => (await raw(item())).source === 'hit')
    expect(await raw(`/_api/component/html_contents/${component.toUpperCase()}`)).toEqual({
      status: 200,
      source: 'hit',
    })
    await raw(route)
    await waitFor(async () => (await raw(route)).source === 'hit')
    expect(await raw('/_api/_/routes/%2fadm%2fpage')).toEqual({ status: 200, source: 'hit' })
  })

  it('attack: 120 one-shot spellings and hosts store nothing; sent twice each, they never evict the site’s answers', async () => {
    const site = [item(), route, '/_api/component/html_contents']
    for (const path of site) await waitFor(async () => (await raw(path)).source === 'hit')
    // Another spelling each time: the characters of the UUID picked by the bits of n escaped (`%30` for `0`).
    const escaped = (n: number) =>
      [...component].map((c, i) => (i < 12 && (n >> i) & 1 ? `%${c.charCodeAt(0).toString(16)}` : c)).join('')
    const strays = (n: number): Array<[string, Record<string, string>]> => [
      [`/_api/component/html_contents/${escaped(n + 1)}`, {}],
      [item(), { host: `h${n}.example` }],
      [route, { host: `r${n}.example:81` }],
    ]
    const before = (await server.sql('SELECT count(*)::int AS n FROM _acb_read_model'))[0].n as number
    for (let n = 0; n < 40; n++)
      for (const [path, headers] of strays(n)) expect((await raw(path, headers)).status).toBe(200)
    await settle()
    // Once each: nothing stored.
    expect((await server.sql('SELECT count(*)::int AS n FROM _acb_read_model'))[0].n).toBe(before)
    // Twice each (admitted): stored below the site's answers, so the bound (100) evicts them first.
    for (let n = 40; n < 80; n++)
      for (const [path, headers] of strays(n)) for (const _ of [1, 2]) await raw(path, headers)
    await settle()
    const ranks = await server.sql('SELECT rank, count(*)::int AS n FROM _acb_read_model GROUP BY rank ORDER BY rank')
    expect(ranks.find((row: { rank: number }) => row.rank === 0)?.n ?? 0).toBeGreaterThan(0)
    for (const path of site) expect((await raw(path)).source).toBe('hit')
  })
})

/**
 * Issue 25, what goes into the store: a plain read (a path, no query string, no `path` header) is stored at its
 * first miss; a variant (a query string, a `path` header) only at its second (`readModel.admitVariantsAfter`). The
 * attack guarded against: cache-busting reads (`?bust=<random>`, each sent once) filling the store and pushing the
 * site's own answers out of it, so every visitor pays Payload's path again.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

let server: TestServer

const source = async (path: string, headers: Record<string, string> = {}) =>
  (await fetch(`${server.url}${path}`, { headers })).headers.get('cwa-read-model')
const stored = async (path: string) =>
  (await server.sql('SELECT count(*)::int AS n FROM _acb_read_model WHERE path = $1', [path]))[0].n as number
const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

beforeAll(async () => {
  server = await startTestServer({ options: { readModel: { maxEntries: 100 } } })
  await server.payload.create({
    collection: 'html_contents',
    data: { html: '<p>admitted</p>', publishedAt: '2020-01-01T00:00:00.000Z' } as never,
  })
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

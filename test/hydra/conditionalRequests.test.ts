/**
 * Reads carry a weak ETag and answer 304 to a client that already holds
 * them, through either adapter: a cache revalidates instead of downloading.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})

afterAll(async () => {
  await server?.close()
})

describe('conditional reads', () => {
  it('tags a read and answers 304, without a body, to the same tag', async () => {
    const admin = await server.tokenFor('ROLE_ADMIN')
    const layout = await server.post(
      '/_api/_/layouts',
      { reference: 'etag-layout', uiComponent: 'PrimaryLayout' },
      { token: admin },
    )
    const first = await server.get(layout.body['@id'])
    const etag = first.headers.get('etag')
    // Led by the record's version (for a write's If-Match: publishable/ifMatch.test.ts), then the body's length and hash.
    expect(etag).toMatch(/^W\/"v[\w-]{16}\.[0-9a-f]+-[A-Za-z0-9+/]{27}"$/)

    // fetch() adds `Cache-Control: no-cache` to a conditional request unless the request says otherwise.
    const again = await server.get(layout.body['@id'], {
      headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' },
    })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)

    // The client asks to skip its cache: the full answer.
    expect(
      (await server.get(layout.body['@id'], { headers: { 'if-none-match': etag!, 'cache-control': 'no-cache' } }))
        .status,
    ).toBe(200)

    await server.patch(layout.body['@id'], { reference: 'etag-layout-2' }, { token: admin })
    const changed = await server.get(layout.body['@id'], {
      headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' },
    })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(changed.body.reference).toBe('etag-layout-2')
  })

  it('never tags an error or a write', async () => {
    const missing = await server.get('/_api/_/layouts/0b3f1d9e-7a6b-4a5c-9d8e-1f2a3b4c5d6e')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('etag')).toBeNull()
    const admin = await server.tokenFor('ROLE_ADMIN')
    const created = await server.post(
      '/_api/_/layouts',
      { reference: 'etag-created', uiComponent: 'PrimaryLayout' },
      { token: admin },
    )
    expect(created.status).toBe(201)
    expect(created.headers.get('etag')).toBeNull()
  })
})

/**
 * Issue 25, the read model: an anonymous read is stored once computed and served from PostgreSQL after that
 * (CWA-Read-Model: miss, then hit, the same bytes); a write through the API drops what it changed in its own
 * transaction, so the next read is computed again and fresh; signed-in callers never get or fill a stored answer.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

let server: TestServer
let admin: string
let component: string

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  const created = await server.post(
    '/_api/component/html_contents',
    { html: '<p>first</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
    { token: admin },
  )
  expect(created.status).toBe(201)
  component = created.body['@id']
})
afterAll(async () => {
  await server?.close()
})

describe('the read model', () => {
  it('stores an anonymous read and serves the same bytes from the store', async () => {
    const first = await server.get(component)
    expect(first.status).toBe(200)
    expect(first.headers.get('cwa-read-model')).toBe('miss')
    // Stored beside the answer (the caller does not wait for it): served from the store once kept.
    const second = await waitFor(async () => {
      const read = await server.get(component)
      return read.headers.get('cwa-read-model') === 'hit' && read
    })
    expect(second.text).toBe(first.text)
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'))
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'))
    const { queries } = await server.countQueries(() => server.get(component))
    expect(queries).toBe(1)
  })

  it('a write through the API drops the stored answer: the next read is fresh', async () => {
    await waitFor(async () => (await server.get(component)).headers.get('cwa-read-model') === 'hit')
    const edited = await server.patch(component, { html: '<p>second</p>' }, { token: admin })
    expect(edited.status).toBe(200)
    // An edit of a published record goes to its draft: publish it.
    const published = await server.patch(
      edited.body['@id'],
      { publishedAt: '2020-01-01T00:00:00.000Z' },
      { token: admin },
    )
    expect(published.status).toBe(200)
    const read = await server.get(component)
    expect(read.headers.get('cwa-read-model')).toBe('miss')
    expect(read.body.html).toBe('<p>second</p>')
  })

  it('a signed-in caller neither gets nor fills a stored answer', async () => {
    const read = await server.get(component, { token: admin })
    expect(read.status).toBe(200)
    expect(read.headers.get('cwa-read-model')).toBeNull()
  })

  it('a store that cannot be read (dropped by a newer release starting) leaves reads to Payload’s path, never a 500', async () => {
    await server.sql('DROP TABLE _acb_read_model')
    const read = await server.get(component)
    expect(read.status).toBe(200)
    expect(read.body.html).toBe('<p>second</p>')
    expect(read.headers.get('cwa-read-model')).toBeNull()
  })
})

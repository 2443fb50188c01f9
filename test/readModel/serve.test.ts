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

  it('a draft scheduled 300 ms ahead by a write that commits after that moment takes over its twin: the twin is not served stale from the store (the attack: a slow write, under load, leaving an old answer served forever)', async () => {
    const created = await server.post(
      '/_api/component/html_contents',
      { html: '<p>before</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
      { token: admin },
    )
    const live = created.body['@id']
    await waitFor(async () => {
      await server.get(live)
      return (await server.get(live)).headers.get('cwa-read-model') === 'hit'
    })
    const draft = await server.patch(live, { html: '<p>taken over</p>' }, { token: admin })
    expect(draft.status).toBe(200)
    // The write of the date is slowed in the database (a real trigger): it commits after the moment it names.
    await server.sql(`CREATE FUNCTION slow_schedule() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.published_at IS NOT NULL AND NEW.published_resource_id IS NOT NULL THEN PERFORM pg_sleep(0.6); END IF;
      RETURN NEW; END $$`)
    await server.sql(
      'CREATE TRIGGER slow_schedule BEFORE UPDATE ON _acb_html_contents FOR EACH ROW EXECUTE FUNCTION slow_schedule()',
    )
    try {
      const at = new Date(Date.now() + 300).toISOString()
      const scheduled = await server.patch(draft.body['@id'], { publishedAt: at }, { token: admin })
      expect(scheduled.status).toBe(200)
      expect(Date.now()).toBeGreaterThan(Date.parse(at))
    } finally {
      await server.sql('DROP TRIGGER slow_schedule ON _acb_html_contents')
      await server.sql('DROP FUNCTION slow_schedule()')
    }
    expect((await server.get(live)).body.html).toBe('<p>taken over</p>')
    expect((await server.get(live)).body.html).toBe('<p>taken over</p>')
  })

  it('a store that cannot be read (dropped by a newer release starting) leaves reads to Payload’s path, never a 500', async () => {
    await server.sql('DROP TABLE _acb_read_model')
    const read = await server.get(component)
    expect(read.status).toBe(200)
    expect(read.body.html).toBe('<p>second</p>')
    expect(read.headers.get('cwa-read-model')).toBeNull()
  })
})

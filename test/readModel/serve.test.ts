/**
 * Issue 25, the read model: an anonymous read is stored once computed and served from PostgreSQL after that
 * (CWA-Read-Model: miss, then hit, the same bytes); a write through the API drops what it changed in its own
 * transaction, so the next read is computed again and fresh; signed-in callers never get or fill a stored answer.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
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

  /**
   * Issue 36: the `path` request header is resolved (route, then page data) while a dynamic position is read. An error
   * there used to be taken for "no page data", and that answer stored with nothing that drops it: an empty block served
   * from the store (and from a shared cache) after the error had passed. The attack guarded against: one read made
   * while the database hiccups leaves a wrong answer served until an unrelated write.
   */
  describe('an error while resolving the path header', () => {
    let dynamic: string
    let block: string
    let article: string
    /** The position read with a `path` header: the article's route by default. */
    const read = async (path = '/serve-article') => {
      const response = await fetch(`${server.url}${dynamic}`, { headers: { accept: 'application/ld+json', path } })
      const text = await response.text()
      return { status: response.status, source: response.headers.get('cwa-read-model'), shows: text.includes(block) }
    }

    beforeAll(async () => {
      const layout = await server.post('/_api/_/layouts', { reference: 'serve-layout' }, { token: admin })
      const group = await server.post(
        '/_api/_/component_groups',
        { reference: 'serve-group', location: 'main' },
        { token: admin },
      )
      const page = await server.post(
        '/_api/_/pages',
        { reference: 'serve-page', title: 'P', layout: layout.body['@id'], componentGroups: [group.body['@id']] },
        { token: admin },
      )
      block = (
        await server.post(
          '/_api/component/html_contents',
          { html: '<p>the article</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
          { token: admin },
        )
      ).body['@id']
      article = (
        await server.post(
          '/_api/page_data/blog_article_datas',
          { title: 'A', page: page.body['@id'], htmlContent: block, publishedAt: '2020-01-01T00:00:00.000Z' },
          { token: admin },
        )
      ).body['@id']
      await server.post('/_api/_/routes', { path: '/serve-article', pageData: article }, { token: admin })
      const position = await server.post(
        '/_api/_/component_positions',
        { componentGroup: group.body['@id'], pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' },
        { token: admin },
      )
      expect(position.status).toBe(201)
      dynamic = position.body['@id']
      expect(await read()).toEqual({ status: 200, source: 'miss', shows: true })
    })

    it('the database unavailable (a statement cancelled): 503, as any other read, and nothing stored', async () => {
      // The page data table held by another transaction; the read's statement waiting on it is cancelled (57014).
      const holder = new pg.Client({ connectionString: server.databaseUrl })
      await holder.connect()
      try {
        await holder.query('BEGIN')
        await holder.query('LOCK TABLE _acb_blog_article_datas IN ACCESS EXCLUSIVE MODE')
        const during = read()
        await waitFor(async () => {
          const { rows } = await holder.query(
            `SELECT pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          )
          return rows.some((row: { cancelled: boolean }) => row.cancelled)
        })
        expect((await during).status).toBe(503)
      } finally {
        await holder.query('ROLLBACK')
        await holder.end()
      }
      expect(await read()).toEqual({ status: 200, source: 'miss', shows: true })
    })

    it('any other error shows no page data, and that answer is never stored', async () => {
      await server.sql('ALTER TABLE _acb_blog_article_datas RENAME TO serve_away')
      try {
        // Named by its IRI (a header not read before). Twice: a variant (a path header) is stored at its second miss.
        for (let i = 0; i < 2; i++) expect(await read(article)).toEqual({ status: 200, source: 'miss', shows: false })
        await new Promise((resolve) => setTimeout(resolve, 50))
      } finally {
        await server.sql('ALTER TABLE serve_away RENAME TO _acb_blog_article_datas')
      }
      expect(await read(article)).toEqual({ status: 200, source: 'miss', shows: true })
    })
  })

  it('a store that cannot be read (dropped by a newer release starting) leaves reads to Payload’s path, never a 500', async () => {
    await server.sql('DROP TABLE _acb_read_model')
    const read = await server.get(component)
    expect(read.status).toBe(200)
    expect(read.body.html).toBe('<p>second</p>')
    expect(read.headers.get('cwa-read-model')).toBeNull()
  })
})

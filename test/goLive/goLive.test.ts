/**
 * Issue 14, go-live at the moment it happens (beyond the contract): a
 * Payload jobs task is queued for the soonest upcoming liveAt / publishedAt
 * and re-queued after each change; when it runs, a scheduled draft takes
 * over and a route going live is announced, as write events (so the cache
 * purge and the real-time update go out then). Promote-on-read stays.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { recordWriteEvents, summary } from '../support/writeEvents'

let server: TestServer
let admin: string
const events = recordWriteEvents()
const PAST = '2020-01-01T00:00:00.000Z'
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString()
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The go-live jobs still waiting to run, as stored. */
const pending = () =>
  server.sql(
    "SELECT id, wait_until, input FROM payload_jobs WHERE task_slug = 'cwaGoLive' AND completed_at IS NULL ORDER BY wait_until",
  )

/** Runs the due jobs as the runner of `npm start` does (every queue). */
const runJobs = () => server.payload.jobs.run({ allQueues: true } as never)

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

describe('the go-live job', () => {
  it('is queued for the soonest upcoming moment after a write, and moved when that moment changes', async () => {
    const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'gl-layout' } as never })
    const page = await server.payload.create({
      collection: 'pages',
      data: { reference: 'gl-page', title: 'G', layout: layout.id } as never,
    })
    const at = inSeconds(3600)
    const route = await server.post(
      '/_api/_/routes',
      { path: '/gl-later', page: `/_api/_/pages/${page.id}`, liveAt: at },
      { token: admin },
    )
    expect(route.status).toBe(201)
    let jobs = await pending()
    expect(jobs).toHaveLength(1)
    expect(new Date(jobs[0].wait_until).toISOString()).toBe(at)
    const sooner = inSeconds(1800)
    expect((await server.patch(route.body['@id'], { liveAt: sooner }, { token: admin })).status).toBe(200)
    jobs = await pending()
    expect(jobs).toHaveLength(1)
    expect(new Date(jobs[0].wait_until).toISOString()).toBe(sooner)
    // Nothing scheduled any more: no job left.
    expect((await server.patch(route.body['@id'], { liveAt: null }, { token: admin })).status).toBe(200)
    expect(await pending()).toHaveLength(0)
  })

  it('a write that sets no date to come and cleared none leaves the queued job alone, and spends no query on it', async () => {
    const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'gl-layout-3' } as never })
    const page = await server.payload.create({
      collection: 'pages',
      data: { reference: 'gl-page-3', title: 'G3', layout: layout.id } as never,
    })
    const route = await server.post(
      '/_api/_/routes',
      { path: '/gl-kept', page: `/_api/_/pages/${page.id}`, liveAt: inSeconds(3600) },
      { token: admin },
    )
    expect(route.status).toBe(201)
    const [job] = await pending()
    expect(job).toBeDefined()
    const scheduling = (sql: string[]) => sql.filter((text) => /payload_jobs|min\(/.test(text))
    // Publishing at once, then editing the live record (its draft) and publishing that draft.
    const created = await server.countQueries(() =>
      server.post('/_api/component/html_contents', { html: '<p>at once</p>', publishedAt: PAST }, { token: admin }),
    )
    expect(created.result.status).toBe(201)
    const edited = await server.countQueries(() =>
      server.patch(created.result.body['@id'], { html: '<p>edited</p>' }, { token: admin }),
    )
    expect(edited.result.status).toBe(200)
    const published = await server.countQueries(() =>
      server.patch(edited.result.body['@id'], { publishedAt: PAST }, { token: admin }),
    )
    expect(published.result.status).toBe(200)
    expect([...scheduling(created.sql), ...scheduling(edited.sql), ...scheduling(published.sql)]).toEqual([])
    expect(await pending()).toEqual([job])
    // Clearing the date to come is a change of moment: the job goes.
    expect((await server.patch(route.body['@id'], { liveAt: null }, { token: admin })).status).toBe(200)
    expect(await pending()).toHaveLength(0)
  })

  it('at the moment: the scheduled draft takes over and the route going live is announced, as write events; then nothing is left queued', async () => {
    const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'gl-layout-2' } as never })
    const page = await server.payload.create({
      collection: 'pages',
      data: { reference: 'gl-page-2', title: 'G2', layout: layout.id } as never,
    })
    const live = await server.post(
      '/_api/component/html_contents',
      { html: '<p>before</p>', publishedAt: PAST },
      { token: admin },
    )
    const draft = await server.patch(live.body['@id'], { html: '<p>after</p>' }, { token: admin })
    const moment = inSeconds(2)
    expect((await server.patch(draft.body['@id'], { publishedAt: moment }, { token: admin })).status).toBe(200)
    const route = await server.post(
      '/_api/_/routes',
      { path: '/gl-soon', page: `/_api/_/pages/${page.id}`, liveAt: moment },
      { token: admin },
    )
    expect(route.status).toBe(201)
    const jobs = await pending()
    expect(jobs).toHaveLength(1)
    expect(new Date(jobs[0].wait_until).toISOString()).toBe(moment)
    // Before the moment, the runner has nothing to do.
    events.length = 0
    await runJobs()
    expect(events).toEqual([])
    await pause(Math.max(0, new Date(moment).getTime() - Date.now()) + 300)
    await runJobs()
    expect(summary(events)).toEqual(
      [`delete ${draft.body['@id']}`, `publish ${live.body['@id']}`, `update ${route.body['@id']}`].sort(),
    )
    // The draft was promoted by the job, not by a read.
    expect(
      await server.sql('SELECT html FROM _acb_html_contents WHERE id = $1', [live.body['@id'].split('/').pop()]),
    ).toEqual([{ html: '<p>after</p>' }])
    expect(
      await server.sql('SELECT id FROM _acb_html_contents WHERE id = $1', [draft.body['@id'].split('/').pop()]),
    ).toEqual([])
    expect((await server.get(route.body['@id'])).status).toBe(200)
    expect(await pending()).toHaveLength(0)
  })

  it('a record scheduled without a twin is announced as published at its moment (nothing in the database changes then)', async () => {
    const moment = inSeconds(2)
    const scheduled = await server.post(
      '/_api/component/html_contents',
      { html: '<p>scheduled</p>', publishedAt: moment },
      { token: admin },
    )
    expect(scheduled.status).toBe(201)
    expect((await server.get(scheduled.body['@id'])).status).toBe(404)
    await pause(Math.max(0, new Date(moment).getTime() - Date.now()) + 300)
    events.length = 0
    await runJobs()
    expect(summary(events)).toEqual([`publish ${scheduled.body['@id']}`])
    expect((await server.get(scheduled.body['@id'])).status).toBe(200)
  })

  it('a record published at once (its date already come when written) is announced by its write only, not again by the job', async () => {
    events.length = 0
    const now = await server.post(
      '/_api/component/html_contents',
      { html: '<p>now</p>', publishedAt: new Date().toISOString() },
      { token: admin },
    )
    expect(now.status).toBe(201)
    expect(summary(events)).toEqual([`publish ${now.body['@id']}`])
    events.length = 0
    // The job's window (since, now] holds the record's date (and earlier tests' moments, announced again: not looked at).
    await server.payload.jobs.queue({
      task: 'cwaGoLive',
      input: { since: new Date(Date.now() - 30_000).toISOString() },
    } as never)
    await runJobs()
    expect(summary(events).filter((line) => line.endsWith(now.body['@id']))).toEqual([])
  })
})

/**
 * The checks of `npm run load` (bench/load/) can fail: each is given a
 * violation and must report it, and a clean case must pass. Draft leaks are
 * judged on response bodies, lost writes on database rows, twins in SQL on a
 * real database (cloned from the migrated template) holding broken twins.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
import {
  DRAFT_MARKER,
  DraftWindows,
  draftLeaks,
  lostWrites,
  PublishedVersions,
  totalViolations,
  twinViolations,
  type ComponentRow,
} from '../../bench/load/invariants'
import { judge } from '../../bench/load/report'
import type { LoadOutcome, LoadPlan } from '../../bench/load/types'
import { LoadRecorder } from '../../bench/load/recorder'
import { ClientWorkload } from '../../bench/load/workload'
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/database'

const P = '11111111-1111-4111-8111-111111111111'
const D = '22222222-2222-4222-8222-222222222222'
const Q = '33333333-3333-4333-8333-333333333333'

describe('draftLeaks: no draft returned to an anonymous request', () => {
  const request = { path: '/_api/component/html_contents', sentAt: 100, receivedAt: 200 }

  it('reports draft content (the marker) in an anonymous body', () => {
    const body = JSON.stringify({ member: [{ html: `<p>${DRAFT_MARKER}3-17</p>` }] })
    const found = draftLeaks(body, request, new DraftWindows())
    expect(found).toEqual([
      {
        invariant: 'no draft returned to an anonymous request',
        detail: `GET ${request.path} returned draft content ${DRAFT_MARKER}3-17`,
      },
    ])
  })

  it('reports the id of a record that was a draft for the whole request, not one that was published meanwhile or created later', () => {
    const windows = new DraftWindows()
    windows.opened(D, 50) // a draft before the request was sent, still a draft
    windows.opened(P, 50)
    windows.closed(P, 150) // its publication was sent while the read was under way: it may legitimately show
    windows.opened(Q, 120) // created while the read was under way: not certainly a draft when read
    const body = JSON.stringify({
      resource_iris: [`/_api/component/html_contents/${D}`, `/_api/component/html_contents/${P}`, `/x/${Q}`],
    })
    expect(draftLeaks(body, request, windows).map((v) => v.detail)).toEqual([
      `GET ${request.path} named the draft ${D}`,
    ])
  })

  it('passes a clean body', () => {
    expect(draftLeaks('{"html":"<p>PUBLISHED-1-2</p>"}', request, new DraftWindows())).toEqual([])
  })
})

describe('PublishedVersions: no stale anonymous read after a committed write', () => {
  const versions = () => {
    const v = new PublishedVersions()
    v.initial(P, '<p>LIVE</p>')
    v.acknowledged(P, '<p>PUBLISHED-1-1</p>', 100)
    v.acknowledged(P, '<p>PUBLISHED-1-2</p>', 200)
    return v
  }
  const read = (sentAt: number) => ({ path: `/_api/component/html_contents/${P}`, sentAt })

  it('reports a read sent after a publication was acknowledged that shows an older version', () => {
    expect(versions().stale(P, '{"html":"<p>PUBLISHED-1-1</p>"}', read(250))).toEqual({
      invariant: 'no stale anonymous read after a committed write',
      detail: `GET /_api/component/html_contents/${P} showed <p>PUBLISHED-1-1</p>, 50 ms after <p>PUBLISHED-1-2</p> was acknowledged`,
    })
    expect(versions().stale(P, '{"html":"<p>LIVE</p>"}', read(150))?.detail).toContain('showed <p>LIVE</p>')
  })

  it('passes the version due, a later one, a read sent before the acknowledgement, and content it does not know', () => {
    const v = versions()
    expect(v.stale(P, '{"html":"<p>PUBLISHED-1-2</p>"}', read(250))).toBeNull()
    expect(v.stale(P, '{"html":"<p>PUBLISHED-1-2</p>"}', read(150))).toBeNull()
    expect(v.stale(P, '{"html":"<p>PUBLISHED-1-1</p>"}', read(150))).toBeNull()
    expect(v.stale(P, '{"html":"<p>LIVE</p>"}', read(50))).toBeNull()
    // A publication under way, not acknowledged yet: not judged.
    expect(v.stale(P, '{"html":"<p>PUBLISHED-1-3</p>"}', read(250))).toBeNull()
    expect(v.stale(D, '{"html":"<p>LIVE</p>"}', read(250))).toBeNull()
  })
})

describe('lostWrites: every acknowledged write is in the database', () => {
  const now = new Date('2026-01-01T00:00:00Z')
  const past = new Date('2025-01-01T00:00:00Z')
  const rows: ComponentRow[] = [
    { id: P, html: '<p>PUBLISHED-1</p>', published_at: past, published_resource_id: null },
    { id: D, html: '<p>old draft</p>', published_at: null, published_resource_id: P },
  ]

  it('reports a draft that lost its acknowledged content, and a published record the database lost', () => {
    const found = lostWrites(
      [
        [P, [{ html: '<p>PUBLISHED-1</p>', published: true, twin: null }]],
        [D, [{ html: `<p>${DRAFT_MARKER}1-4</p>`, published: false, twin: P }]],
        [Q, [{ html: '<p>PUBLISHED-2</p>', published: true, twin: null }]],
      ],
      rows,
      now,
    )
    expect(found.map((v) => v.invariant)).toEqual(['no lost write', 'no lost write'])
    expect(found[0]!.detail).toBe(
      `${D}: expected draft of ${P} "<p>${DRAFT_MARKER}1-4</p>", the database has draft of ${P} "<p>old draft</p>"`,
    )
    expect(found[1]!.detail).toContain(`${Q}: expected published "<p>PUBLISHED-2</p>", the database has missing`)
  })

  it('reports a draft still there after its publication was acknowledged (it must be deleted)', () => {
    expect(lostWrites([[D, ['absent']]], rows, now).map((v) => v.detail)).toEqual([
      `${D}: expected deleted, the database has draft of ${P} "<p>old draft</p>"`,
    ])
  })

  it('accepts either state of a record whose write got no answer', () => {
    expect(lostWrites([[D, [{ html: '<p>old draft</p>', published: false, twin: P }, 'absent']]], rows, now)).toEqual(
      [],
    )
    expect(lostWrites([[D, [{ html: '<p>new</p>', published: false, twin: P }, 'absent']]], rows, now)).toHaveLength(1)
  })
})

describe('the workload records what it must check', () => {
  const plan: LoadPlan = {
    base: 'http://127.0.0.1:1',
    seconds: 1,
    connections: 1,
    timeout: 10,
    writeEvery: 2,
    adminToken: 't',
    reads: { route: ['/r'], manifest: ['/m'], page: ['/p'], component: ['/c'], collection: ['/l'] },
    componentPath: '/_api/component/html_contents',
    writable: [{ id: P, html: '<p>live</p>' }],
    past: '2020-01-01T00:00:00.000Z',
  }

  it('one request in writeEvery is an admin write; an edit answered 200 expects its draft, and that draft id in a later anonymous body is a leak', () => {
    const recorder = new LoadRecorder()
    const workload = new ClientWorkload(0, plan, recorder, () => 0)
    let clock = 0
    const read = workload.next(++clock)
    expect(read.method).toBe('GET')
    expect(read.headers.authorization).toBeUndefined()
    workload.answered(200, '{}', ++clock)
    const edit = workload.next(++clock)
    expect(edit).toMatchObject({ method: 'PATCH', path: `/_api/component/html_contents/${P}` })
    expect(edit.headers.authorization).toBe('Bearer t')
    const html = (JSON.parse(edit.body!) as { html: string }).html
    expect(html).toContain(DRAFT_MARKER)
    workload.answered(200, JSON.stringify({ '@id': `/_api/component/html_contents/${D}`, html }), ++clock)
    expect(recorder.expected.get(D)).toEqual([{ html, published: false, twin: P }])

    workload.next(++clock)
    workload.answered(200, JSON.stringify({ member: [{ '@id': `/_api/component/html_contents/${D}` }] }), ++clock)
    expect([...recorder.violations.counts]).toEqual([['no draft returned to an anonymous request', 1]])
  })

  it('a component read sent after its publication was acknowledged that shows the former content is a stale read', () => {
    // The rolls: 0.7 reads a component; the eighth roll (0) publishes the edited draft, not the new one.
    const rolls = [0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0, 0.7, 0.7]
    const recorder = new LoadRecorder()
    recorder.startsWith(P, '<p>live</p>')
    const componentRead = `/_api/component/html_contents/${P}`
    const workload = new ClientWorkload(
      0,
      { ...plan, reads: { ...plan.reads, component: [componentRead] } },
      recorder,
      () => rolls.shift() ?? 0.7,
    )
    let clock = 0
    const live = JSON.stringify({ '@id': componentRead, html: '<p>live</p>' })
    expect(workload.next(++clock).path).toBe(componentRead)
    workload.answered(200, live, ++clock)
    const edit = workload.next(++clock)
    workload.answered(200, JSON.stringify({ '@id': `/x/${D}`, html: JSON.parse(edit.body!).html }), ++clock)
    workload.next(++clock)
    workload.answered(200, live, ++clock)
    const create = workload.next(++clock)
    expect(create.method).toBe('POST')
    workload.answered(201, JSON.stringify({ '@id': `/x/${Q}` }), ++clock)
    workload.next(++clock)
    workload.answered(200, live, ++clock)
    const publish = workload.next(++clock)
    expect(publish.path).toBe(`/_api/component/html_contents/${D}`)
    const published = (JSON.parse(publish.body!) as { html: string }).html
    workload.answered(200, JSON.stringify({ '@id': componentRead, html: published }), ++clock)
    expect(recorder.violations.counts.size).toBe(0)
    workload.next(++clock)
    workload.answered(200, live, ++clock)
    expect([...recorder.violations.counts]).toEqual([['no stale anonymous read after a committed write', 1]])
    expect(recorder.versions.judged).toBe(1)
  })

  it('a 5xx is a violation; a write with no answer leaves both states acceptable', () => {
    const recorder = new LoadRecorder()
    const workload = new ClientWorkload(0, { ...plan, writeEvery: 1 }, recorder, () => 0)
    let clock = 0
    const edit = workload.next(++clock)
    workload.answered(200, JSON.stringify({ '@id': `/x/${D}`, html: JSON.parse(edit.body!).html }), ++clock)
    workload.next(++clock) // a create
    workload.answered(503, 'down', ++clock)
    const publish = workload.next(++clock) // the draft's publication: the time runs out before its answer
    expect(publish).toMatchObject({ method: 'PATCH', path: `/_api/component/html_contents/${D}` })
    workload.finish()
    expect(recorder.cutOff).toBe(1)
    expect(recorder.expected.get(D)).toEqual([
      { html: JSON.parse(edit.body!).html, published: false, twin: P },
      'absent',
    ])
    expect(recorder.violations.counts.get('no 5xx')).toBe(1)
  })
})

/** A client on a database of its own, cloned from the migrated template, for the describe block that calls this. */
function clonedDatabase(): { client: () => pg.Client } {
  let database: string | undefined
  let client: pg.Client | undefined
  beforeAll(async () => {
    database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
    client = new pg.Client({ connectionString: databaseUrl(database) })
    await client.connect()
  })
  afterAll(async () => {
    await client?.end()
    if (database) await dropDatabase(database)
  })
  return { client: () => client! }
}

/** An HtmlContent row written straight in SQL (around Payload's validation, as a fault would leave one). */
async function insertHtmlContent(
  client: pg.Client,
  html: string,
  publishedAt: string | null,
  twin: string | null,
): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    'INSERT INTO _acb_html_contents (html, published_at, published_resource_id) VALUES ($1, $2, $3) RETURNING id::text',
    [html, publishedAt, twin],
  )
  return rows[0]!.id
}

describe('twinViolations: one published twin per record, in SQL', () => {
  const db = clonedDatabase()
  let client: pg.Client
  beforeAll(() => {
    client = db.client()
  })

  it('passes sound twins and reports a twin of a draft, a twin dated in the past and two drafts of one record', async () => {
    const insert = (html: string, publishedAt: string | null, twin: string | null) =>
      insertHtmlContent(client, html, publishedAt, twin)
    const live = await insert('live', '2020-01-01', null)
    await insert('its draft', null, live)
    expect(await twinViolations(client, ['_acb_html_contents'])).toEqual([])
    // All tables of publishable types are found and checked.
    expect(await twinViolations(client)).toEqual([])

    const draft = await insert('a draft', null, null)
    const twinOfDraft = await insert('twin of a draft', null, draft)
    const other = await insert('other live', '2020-01-01', null)
    const due = await insert('second published version', '2020-06-01', other)
    // The unique index keeps two drafts of one record out; without it, the check must still see them.
    await client.query('DROP INDEX _acb_html_contents_published_resource_idx')
    const live2 = await insert('live 2', '2020-01-01', null)
    const first = await insert('first draft', null, live2)
    const second = await insert('second draft', null, live2)

    const found = (await twinViolations(client)).map((v) => v.detail).sort()
    expect(found).toEqual(
      [
        `_acb_html_contents ${twinOfDraft} (twin ${draft}) points at a record that is not published`,
        `_acb_html_contents ${due} (twin ${other}) is a twin dated in the past (a second published version)`,
        `_acb_html_contents ${[first, second].sort()[0]} (twin ${live2}) is one of 2 drafts of one record`,
      ].sort(),
    )
  })
})

describe('totalViolations: the collection totals match the rows', () => {
  const db = clonedDatabase()
  let client: pg.Client
  beforeAll(() => {
    client = db.client()
  })

  it('passes totals equal to the rows counted in SQL and reports any other, per caller', async () => {
    const insert = (publishedAt: string | null, twin: string | null = null) =>
      insertHtmlContent(client, 'x', publishedAt, twin)
    const live = await insert('2020-01-01')
    await insert('2020-01-01')
    await insert(null, live) // a draft twin: the admin sees that family once
    await insert(null) // a draft
    await insert('2999-01-01') // scheduled
    const totals = { anonymous: 2, admin: 4 }
    const read = (wrong: 'anonymous' | 'admin' | null) => async (_path: string, admin: boolean) => {
      const who = admin ? 'admin' : 'anonymous'
      return { status: 200, totalItems: totals[who] + (wrong === who ? 1 : 0) }
    }
    expect(await totalViolations(client, read(null))).toEqual([])
    expect((await totalViolations(client, read('anonymous'))).map((v) => v.detail)).toEqual([
      'anonymous: totalItems 3 (status 200), 2 in SQL',
    ])
    expect((await totalViolations(client, read('admin'))).map((v) => v.detail)).toEqual([
      'admin: totalItems 5 (status 200), 4 in SQL',
    ])
  })
})

describe('judge: the report', () => {
  const kind = { count: 1, statuses: { '200': 1 }, p50: 1, p99: 2 }
  const outcome: LoadOutcome = {
    seconds: 1,
    cannon: { total: 8, average: 8, p50: 1, p99: 2, errors: 0, timeouts: 0 },
    kinds: {
      route: kind,
      manifest: kind,
      page: kind,
      component: kind,
      collection: kind,
      edit: kind,
      create: { ...kind, statuses: { '201': 1 } },
      publish: kind,
    },
    reads: { count: 5, p50: 1, p99: 2 },
    writes: { count: 3, p50: 1, p99: 2 },
    unanswered: 0,
    cutOff: 0,
    acknowledgedWrites: 3,
    scannedBodies: 5,
    staleChecked: 2,
    expected: [],
    violations: [],
    violationCounts: {},
  }
  const server = {
    cpuMsPerRequest: 1,
    peakRssMb: 100,
    rssMb: [90, 95] as [number, number],
    heapMb: [40, 42] as [number, number],
    published: 1,
    drafts: 0,
    twins: 0,
    tables: 5,
    checkedRecords: 3,
  }

  it('says ok for each invariant when nothing was found, and fails naming the violation otherwise', () => {
    const clean = judge(outcome, [], server)
    expect(clean.ok).toBe(true)
    expect(clean.lines.filter((line) => line.startsWith('invariant ')).every((line) => line.includes(': ok ('))).toBe(
      true,
    )
    const bad = judge(outcome, [{ invariant: 'one published twin per record', detail: 'x is one of 2 drafts' }], server)
    expect(bad.ok).toBe(false)
    expect(bad.lines).toContain(
      'invariant one published twin per record: FAILED (1 violations; 5 publishable tables checked in SQL)',
    )
    expect(bad.lines).toContain('  - x is one of 2 drafts')
    expect(bad.lines.at(-1)).toBe('load: 1 invariant failed')
  })
})

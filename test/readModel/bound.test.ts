/**
 * Issue 25, the read model is bounded: past `readModel.maxEntries` the least recently served answers go (checked
 * every 50 stores, so the table exceeds the bound by less than that between checks); the operator command
 * `cwa:read-model:empty` empties it and says what it held; the option turns the read model off.
 *
 * Issue 36, and by size: past `readModel.maxBytes` of bodies too (checked as well once a tenth of it was stored
 * since the last check). The attack guarded against: reads of one large public record under many keys (100 of a
 * 500 KB record stored 48 MB when only entries were counted).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { trim } from '../../plugins/cwa/dist/features/readModel/store.js'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
import { runPayloadCommand } from '../support/command'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

let server: TestServer

const entries = async () => (await server.sql('SELECT count(*)::int AS n FROM _acb_read_model'))[0].n as number
const stored = async (path: string) =>
  (await server.sql('SELECT count(*)::int AS n FROM _acb_read_model WHERE path = $1', [path]))[0].n === 1

beforeAll(async () => {
  // Each variant (?probe=n) stored at its first miss: this file fills the store with them.
  server = await startTestServer({
    options: { readModel: { maxEntries: 100, maxBytes: 1024 * 1024, admitVariantsAfter: 1 } },
  })
  await server.payload.create({
    collection: 'html_contents',
    data: { html: '<p>bounded</p>', publishedAt: '2020-01-01T00:00:00.000Z' } as never,
  })
})
afterAll(async () => {
  await server?.close()
})

describe('the read model’s bound', () => {
  it('keeps at most maxEntries answers, the least recently served going first', async () => {
    for (let n = 1; n <= 160; n++) {
      const read = await server.get(`/_api/component/html_contents?probe=${n}`)
      expect(read.status).toBe(200)
    }
    // Stores run beside the answers: wait until the last one is in.
    await waitFor(async () => stored('/component/html_contents?probe=160'))
    expect(await entries()).toBeLessThan(100 + 50)
    await trim(server.payload)
    expect(await entries()).toBe(100)
    expect(await stored('/component/html_contents?probe=1')).toBe(false)
    expect(await stored('/component/html_contents?probe=160')).toBe(true)
  })

  it('attack: keeps at most maxBytes of bodies, however few the answers; never stores one larger than that', async () => {
    const large = await server.payload.create({
      collection: 'html_contents',
      data: { html: `<p>${'large '.repeat(25_000)}</p>`, publishedAt: '2020-01-01T00:00:00.000Z' } as never,
    })
    const iri = `/_api/component/html_contents/${large.id}`
    const bytes = async () =>
      Number((await server.sql('SELECT coalesce(sum(bytes), 0)::bigint AS n FROM _acb_read_model'))[0].n)
    for (let n = 1; n <= 16; n++) expect((await server.get(`${iri}?large=${n}`)).status).toBe(200)
    await waitFor(async () => stored(`${iri.replace('/_api', '')}?large=16`))
    // 16 answers of 150 KB (2.4 MB): checked on the way (a tenth of the bound stored since the last check).
    expect(await bytes()).toBeLessThan(2 * 1024 * 1024)
    await trim(server.payload)
    expect(await bytes()).toBeLessThanOrEqual(1024 * 1024)
    expect(await stored(`${iri.replace('/_api', '')}?large=16`)).toBe(true)
    expect(await stored(`${iri.replace('/_api', '')}?large=1`)).toBe(false)

    const huge = await server.payload.create({
      collection: 'html_contents',
      data: { html: `<p>${'huge '.repeat(250_000)}</p>`, publishedAt: '2020-01-01T00:00:00.000Z' } as never,
    })
    const read = await server.get(`/_api/component/html_contents/${huge.id}`)
    expect(read.status).toBe(200)
    expect(read.text.length).toBeGreaterThan(1024 * 1024)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await stored(`/component/html_contents/${huge.id}`)).toBe(false)
    // The collection read below would hold them.
    for (const id of [large.id, huge.id]) await server.payload.delete({ collection: 'html_contents', id })
  })

  it('its tag index keeps no pending list: a write finds the answers of its tags in the index alone (bench --scale)', async () => {
    const [index] = await server.sql(
      `SELECT reloptions AS options FROM pg_class WHERE oid = to_regclass('"_acb_read_model_tags"')`,
    )
    expect(index.options).toContain('fastupdate=off')
  })

  it('cwa:read-model:empty empties it and says what it held; the next read is computed again', async () => {
    await server.get('/_api/component/html_contents?itemsPerPage=7')
    await waitFor(async () => stored('/component/html_contents?itemsPerPage=7'))
    const held = await entries()
    const run = await runPayloadCommand('cwa:read-model:empty', [], { DATABASE_URL: server.databaseUrl })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Emptied the read model: ${held} stored answer(s)`)
    expect(await entries()).toBe(0)
    expect((await server.get('/_api/component/html_contents?itemsPerPage=7')).headers.get('cwa-read-model')).toBe(
      'miss',
    )
    const refused = await runPayloadCommand('cwa:read-model:empty', ['--all'], { DATABASE_URL: server.databaseUrl })
    expect(refused.code).toBe(1)
  }, 120_000)
})

describe('readModel options', () => {
  it('refuses a bound out of range and an enabled that is not a boolean, naming the option', () => {
    for (const maxEntries of [99, 1.5, 10_000_001, '100'])
      expect(() => resolveOptions({ readModel: { maxEntries: maxEntries as never } })).toThrow(
        /readModel\.maxEntries must be a whole number from 100 to 10000000/,
      )
    expect(() => resolveOptions({ readModel: { enabled: 'yes' as never } })).toThrow(
      /readModel\.enabled must be a boolean/,
    )
    for (const admitVariantsAfter of [0, 11, 1.5])
      expect(() => resolveOptions({ readModel: { admitVariantsAfter } })).toThrow(
        /readModel\.admitVariantsAfter must be a whole number from 1 to 10/,
      )
    for (const maxBytes of [1024 * 1024 - 1, 2 ** 40 + 1, 1.5, '67108864'])
      expect(() => resolveOptions({ readModel: { maxBytes: maxBytes as never } })).toThrow(
        /readModel\.maxBytes must be a whole number of bytes from 1048576 \(1 MiB\) to 1099511627776 \(1 TiB\)/,
      )
    expect(resolveOptions({}).readModel).toEqual({
      enabled: true,
      maxEntries: 20_000,
      maxBytes: 64 * 1024 * 1024,
      admitVariantsAfter: 2,
    })
  })
})

describe('readModel.enabled: false', () => {
  let off: TestServer
  beforeAll(async () => {
    off = await startTestServer({ options: { readModel: { enabled: false } } })
  })
  afterAll(async () => {
    await off?.close()
  })

  it('serves every read through Payload’s path and stores nothing', async () => {
    for (let i = 0; i < 2; i++) {
      const read = await off.get('/_api/component/html_contents')
      expect(read.status).toBe(200)
      expect(read.headers.get('cwa-read-model')).toBeNull()
    }
    // Nothing stored (the tables come with the test database's template, built with the read model on).
    expect((await off.sql('SELECT count(*)::int AS stored FROM _acb_read_model'))[0].stored).toBe(0)
  })
})

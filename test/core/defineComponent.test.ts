/**
 * The plugin-author example of docs/plugin-authors.md ("Adding your own types") is this
 * test's subject: the page must hold examples/eventTypes.ts and
 * examples/payload.config.ts verbatim, and the config must serve the types.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import type { Payload } from 'payload'
import { createApp } from '../../plugins/cwa/dist/server/express.js'
import { startPayload } from '../../src/server/bootstrap'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { closePayload } from '../../plugins/cwa/dist/core/utils/closePayload.js'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { PASSWORD } from '../support/server'

const database = `cwa_test_example_${process.pid}`
let payload: Payload
let server: Server
let base: string
let token: string

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/ld+json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: response.status, body: (await response.json().catch(() => null)) as any }
}

beforeAll(async () => {
  await withAdminClient((c) => c.query(`CREATE DATABASE "${database}"`))
  process.env.DATABASE_URL = databaseUrl(database)
  // The example config pushes its schema (development mode), as a new project would.
  const { default: config } = await import('../../examples/payload.config')
  payload = await startPayload({ config, key: database, migrate: false })
  const keys = await loadJwtKeys(process.env)
  const app = createApp({ payload, keys })
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await payload.create({
    collection: 'users',
    data: { username: 'editor', email: 'editor@example.com', password: PASSWORD, roles: ['ROLE_ADMIN'] } as never,
  })
  const login = await fetch(`${base}/_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'editor', password: PASSWORD }),
  })
  token = decodeURIComponent(login.headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1]!)
})

afterAll(async () => {
  server?.close()
  if (payload) await closePayload(payload)
  await dropDatabase(database)
})

describe('plugin-author example: defineComponent and definePageData', () => {
  it('is quoted verbatim in docs/plugin-authors.md', () => {
    const readme = readFileSync('docs/plugin-authors.md', 'utf8')
    expect(readme).toContain(readFileSync('examples/eventTypes.ts', 'utf8').trim())
    expect(readme).toContain(readFileSync('examples/payload.config.ts', 'utf8').trim())
  })

  it('serves the declared types in the entrypoint', async () => {
    const entry = await api('GET', '/_api/')
    expect(entry.body.quote).toBe('/_api/component/quotes')
    expect(entry.body.eventData).toBe('/_api/page_data/event_datas')
  })

  it('creates a component with the base fields, its own fields and timestamps', async () => {
    const created = await api('POST', '/_api/component/quotes', {
      text: 'Hello',
      author: 'Ada',
      uiComponent: 'BigQuote',
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      '@type': 'Quote',
      text: 'Hello',
      author: 'Ada',
      uiComponent: 'BigQuote',
      componentPositions: [],
    })
    expect(typeof created.body.createdAt).toBe('string')
    expect(typeof created.body.modifiedAt).toBe('string')
    expect(created.body._metadata).toEqual({ persisted: true })
    const missing = await api('POST', '/_api/component/quotes', { author: 'Nobody' })
    expect(missing.status).toBe(422)
    expect(missing.body.violations[0].propertyPath).toBe('text')
  })

  it('creates page data with its template page, searches and orders it', async () => {
    const layout = await api('POST', '/_api/_/layouts', { reference: 'main' })
    const template = await api('POST', '/_api/_/pages', {
      reference: 'event',
      isTemplate: true,
      layout: layout.body['@id'],
    })
    const quote = await api('POST', '/_api/component/quotes', { text: 'See you there' })
    for (const [title, venue, startsAt] of [
      ['Launch', 'Harbour Hall', '2027-03-01T18:00:00.000Z'],
      ['Meetup', 'Old Library', '2027-01-15T18:00:00.000Z'],
    ]) {
      const created = await api('POST', '/_api/page_data/event_datas', {
        title,
        venue,
        startsAt,
        page: template.body['@id'],
        quote: quote.body['@id'],
      })
      expect(created.status).toBe(201)
      expect(created.body.quote).toBe(quote.body['@id'])
    }
    const ordered = await api('GET', '/_api/page_data/event_datas')
    expect(ordered.body.member.map((m: { title: string }) => m.title)).toEqual(['Meetup', 'Launch'])
    const searched = await api('GET', '/_api/page_data/event_datas?search=harbour')
    expect(searched.body.totalItems).toBe(1)
    expect(searched.body.member[0].venue).toBe('Harbour Hall')
  })
})

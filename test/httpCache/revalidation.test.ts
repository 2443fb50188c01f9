/**
 * Issue 39, a front end's revalidation route as a purge target (`httpCache.revalidateUrl`): after each write the
 * API POSTs the same tags a purge would carry, signed with `revalidateSecret`, before the write's response goes out;
 * the kit's check (payload-cwa/next's verifyRevalidation) accepts exactly those requests. A route that is down never
 * fails a write. The options refuse a URL without its secret.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolveOptions } from 'payload-cwa'
import { verifyRevalidation } from '../../plugins/cwa/dist/nextKit/revalidate.js'
import { signRevalidation } from '../../plugins/cwa/dist/features/httpCache/revalidation.js'
import { loggedDuring } from '../support/logs'
import { startTestServer, type TestServer } from '../support/server'

const SECRET = 'a-revalidation-secret-of-32-chars-or-more'
let receiver: Server
let received: Array<{ tags: string[]; signed: boolean; at: number }> = []
let server: TestServer
let admin: string
let down = false

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', async () => {
      if (down) return void response.writeHead(503).end()
      const signed = await verifyRevalidation(SECRET, request.headers['cwa-signature'] as string, body)
      received.push({ tags: (JSON.parse(body) as { tags: string[] }).tags, signed, at: Date.now() })
      response.writeHead(signed ? 204 : 401).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/_cwa/revalidate`
  server = await startTestServer({ options: { httpCache: { revalidateUrl: url, revalidateSecret: SECRET } } })
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
  await new Promise((resolve) => receiver?.close(resolve))
})

describe('revalidation requests', () => {
  it('a write sends its tags, signed, before its response: the record, its type, its holders up to the page', async () => {
    const layout = await server.post('/_api/_/layouts', { reference: 'revalidated' }, { token: admin })
    const page = await server.post(
      '/_api/_/pages',
      { reference: 'revalidated', title: 'Revalidated', layout: layout.body['@id'] },
      { token: admin },
    )
    const group = await server.post(
      '/_api/_/component_groups',
      { reference: 'revalidated-main', location: 'main', pages: [page.body['@id']] },
      { token: admin },
    )
    const title = await server.post('/_api/component/titles', { title: 'First' }, { token: admin })
    await server.post(
      '/_api/_/component_positions',
      { componentGroup: group.body['@id'], component: title.body['@id'], sortValue: 0 },
      { token: admin },
    )
    received = []
    const changed = await server.patch(title.body['@id'], { title: 'Second' }, { token: admin })
    const answered = Date.now()
    expect(changed.status).toBe(200)
    expect(received.length).toBeGreaterThan(0)
    expect(received.every((request) => request.signed && request.at <= answered)).toBe(true)
    const tags = received.flatMap((request) => request.tags)
    expect(tags).toEqual(
      expect.arrayContaining([title.body['@id'], '/_api/component/titles', group.body['@id'], page.body['@id']]),
    )
  })

  it('"purge rendered pages" sends the tag every cached page carries', async () => {
    received = []
    expect((await server.post('/_api/_/rendered_html/purge', undefined, { token: admin })).status).toBe(204)
    expect(received).toEqual([{ tags: ['cwa-html'], signed: true, at: expect.any(Number) }])
  })

  it('a route that is down never fails the write; the error is logged', async () => {
    down = true
    try {
      const logged = await loggedDuring(server.payload, async () => {
        const title = await server.post('/_api/component/titles', { title: 'While down' }, { token: admin })
        expect(title.status).toBe(201)
      })
      expect(logged).toMatch(/HTTP cache purge after a write failed/)
      expect(logged).toMatch(/revalidation route .* answered 503/)
    } finally {
      down = false
    }
  })
})

describe('the signature (attack: a forged or replayed revalidation request)', () => {
  it('accepts the API’s signature only: not another secret, another body, or one older than five minutes', async () => {
    const body = JSON.stringify({ tags: ['/_api/x'] })
    const header = signRevalidation(SECRET, body)
    expect(await verifyRevalidation(SECRET, header, body)).toBe(true)
    expect(await verifyRevalidation(`${SECRET}!`, header, body)).toBe(false)
    expect(await verifyRevalidation(SECRET, header, JSON.stringify({ tags: ['*'] }))).toBe(false)
    const old = signRevalidation(SECRET, body, Date.now() - 301_000)
    expect(await verifyRevalidation(SECRET, old, body)).toBe(false)
    for (const forged of [null, '', 't=abc,v1=00', `t=${Math.floor(Date.now() / 1000)},v1=zz`])
      expect(await verifyRevalidation(SECRET, forged, body)).toBe(false)
  })

  it('the options refuse a route without a secret of 32 characters, or a URL that is not http(s)', () => {
    expect(() => resolveOptions({ httpCache: { revalidateUrl: 'https://www.example.com/_cwa/revalidate' } })).toThrow(
      /revalidateSecret \(CWA_REVALIDATE_SECRET\) of 32 characters/,
    )
    expect(() => resolveOptions({ httpCache: { revalidateUrl: 'ftp://x', revalidateSecret: SECRET } })).toThrow(
      /absolute http\(s\) URL/,
    )
    expect(resolveOptions({}).httpCache.revalidateUrl).toBeNull()
  })
})

/**
 * Issue 14, real-time updates: every change of a type declared with
 * `mercure: true` (alias `realtime`) and of the core resources goes to the
 * Mercure hub after its commit, whatever the API; drafts and admin-only
 * views only as private updates; the hub is announced in a Link header; a
 * hub that is down never fails a write. A real round trip through the test
 * hub (test/support/mercureHub.ts) over SSE.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { defineComponent } from 'payload-cwa'
import { getRegistry } from '../../plugins/cwa/dist/core/registry.js'
import { isRealtime, realtimeIdle } from '../../plugins/cwa/dist/features/realtime/index.js'
import { captureLogs } from '../support/logs'
import {
  type MercureTestHub,
  type SseMessage,
  type SseSubscription,
  startMercureHub,
  subscribe,
} from '../support/mercureHub'
import { startTestServer, type TestServer } from '../support/server'

const SECRET = 'mercure-test-secret-0123456789abcdef'
const PUBLIC_HUB = 'https://hub.example.test/.well-known/mercure'
const BASE = 'https://api.example.test'
const PAST = '2020-01-01T00:00:00.000Z'

let hub: MercureTestHub
let server: TestServer
let admin: string
let adminCookie: string

const json = (message: SseMessage) => JSON.parse(message.data) as Record<string, any>
const about = (iri: string) => (message: SseMessage) => json(message)['@id'] === iri

beforeAll(async () => {
  hub = await startMercureHub({ publisherSecret: SECRET })
  server = await startTestServer({
    options: { mercure: { url: hub.url, publicUrl: PUBLIC_HUB, jwtSecret: SECRET, topicBase: BASE, retries: 0 } },
  })
  admin = await server.tokenFor('ROLE_ADMIN')
  // The subscriber cookie an admin's JSON-LD response carries.
  const me = await server.get('/_api/me', { token: admin })
  const line = me.headers.getSetCookie().find((c) => c.startsWith('mercureAuthorization='))!
  adminCookie = line.split(';')[0]!
})
afterAll(async () => {
  if (server) await realtimeIdle(server.payload)
  await server?.close()
  await hub?.close()
})

async function anonymousAndAdmin<T>(
  fn: (anonymous: SseSubscription, admin: SseSubscription) => Promise<T>,
): Promise<T> {
  const anonymous = await subscribe(hub.url, ['*'])
  const privileged = await subscribe(hub.url, ['*'], { headers: { cookie: adminCookie } })
  try {
    return await fn(anonymous, privileged)
  } finally {
    anonymous.close()
    privileged.close()
  }
}

describe('the hub is announced', () => {
  it('Link: the Hydra documentation, then <MERCURE_PUBLIC_URL>; rel="mercure"', async () => {
    const response = await server.get('/_api/')
    const link = response.headers.get('link')!
    expect(link).toMatch(
      /docs\.jsonld>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation", <https:\/\/hub\.example\.test\/\.well-known\/mercure>; rel="mercure"$/,
    )
  })

  it('signed-in admins get the subscriber cookie (HttpOnly, SameSite from the options); anonymous callers do not; a logout clears it', async () => {
    const me = await server.get('/_api/me', { token: admin })
    const line = me.headers.getSetCookie().find((c) => c.startsWith('mercureAuthorization='))!
    expect(line).toMatch(/HttpOnly/)
    expect(line).toMatch(/SameSite=Lax/)
    expect((await server.get('/_api/')).headers.getSetCookie().some((c) => c.startsWith('mercureAuthorization='))).toBe(
      false,
    )
    const user = await server.tokenFor('ROLE_USER')
    expect(
      (await server.get('/_api/me', { token: user })).headers
        .getSetCookie()
        .some((c) => c.startsWith('mercureAuthorization=')),
    ).toBe(false)
    const leaving = await server.tokenFor('ROLE_ADMIN')
    const logout = await server.post('/_api/logout', undefined, { token: leaving })
    const cleared = logout.headers.getSetCookie().find((c) => c.startsWith('mercureAuthorization='))
    expect(cleared).toMatch(/^mercureAuthorization=;.*Max-Age=0/)
  })
})

describe('a real round trip: subscribe over SSE, write, receive', () => {
  it('a write through the JSON-LD API: topic = absolute IRI, data = the JSON-LD an anonymous reader sees', async () => {
    await anonymousAndAdmin(async (anonymous) => {
      const created = await server.post(
        '/_api/component/html_contents',
        { html: '<p>live</p>', publishedAt: PAST },
        { token: admin },
      )
      expect(created.status).toBe(201)
      const iri = created.body['@id'] as string
      const message = await anonymous.waitFor(about(iri))
      const update = hub.updates.find((u) => u.id === message.id)!
      expect(update.topics).toEqual([`${BASE}${iri}`])
      expect(update.private).toBe(false)
      expect(json(message)).toEqual((await server.get(iri)).body)
    })
  })

  it("a write through Payload's REST API (/api) is published the same way", async () => {
    const created = await server.post(
      '/_api/component/html_contents',
      { html: '<p>v1</p>', publishedAt: PAST },
      { token: admin },
    )
    const iri = created.body['@id'] as string
    const id = iri.split('/').pop()
    await realtimeIdle(server.payload)
    await anonymousAndAdmin(async (anonymous) => {
      // An editor's REST edit of a published record makes a draft (the state machine); publishing the draft over REST updates the live record.
      const headers = { accept: 'application/json', cookie: `api_component=${admin}` }
      const response = await server.request(
        'PATCH',
        `/api/html_contents/${id}`,
        { uiClassNames: ['rest'] },
        { contentType: 'application/json', headers },
      )
      expect(response.status).toBe(200)
      const published = await server.request(
        'PATCH',
        `/api/html_contents/${response.body.doc.id}`,
        { publishedAt: new Date().toISOString() },
        { contentType: 'application/json', headers },
      )
      expect(published.status).toBe(200)
      const message = await anonymous.waitFor((m) => about(iri)(m) && (json(m).uiClassNames ?? []).includes('rest'))
      expect(json(message).html).toBe('<p>v1</p>')
    })
  })

  it('a delete is published as {"@id": ...}', async () => {
    const created = await server.post(
      '/_api/component/html_contents',
      { html: '<p>bye</p>', publishedAt: PAST },
      { token: admin },
    )
    const iri = created.body['@id'] as string
    await realtimeIdle(server.payload)
    await anonymousAndAdmin(async (anonymous) => {
      expect((await server.delete(iri, { token: admin })).status).toBe(204)
      const message = await anonymous.waitFor((m) => about(iri)(m) && Object.keys(json(m)).length === 1)
      expect(json(message)).toEqual({ '@id': iri })
    })
  })

  it('issue 41: a move of a position publishes every position whose sortValue it shifted (changed in SQL)', async () => {
    const group = await server.post('/_api/_/component_groups', { reference: 'hub-order' }, { token: admin })
    const positions: string[] = []
    for (let i = 0; i < 3; i++)
      positions.push(
        (await server.post('/_api/_/component_positions', { componentGroup: group.body['@id'] }, { token: admin }))
          .body['@id'],
      )
    const [, b, c] = positions as [string, string, string]
    await realtimeIdle(server.payload)
    await anonymousAndAdmin(async (anonymous) => {
      expect((await server.patch(c, { sortValue: 1 }, { token: admin })).status).toBe(200)
      expect(json(await anonymous.waitFor(about(c))).sortValue).toBe(1)
      expect(json(await anonymous.waitFor(about(b))).sortValue).toBe(2)
    })
  })

  it('a type without the flag (Title) is not published', async () => {
    await anonymousAndAdmin(async (anonymous) => {
      const title = await server.post('/_api/component/titles', { title: 'quiet' }, { token: admin })
      const marker = await server.post(
        '/_api/component/html_contents',
        { html: '<p>marker</p>', publishedAt: PAST },
        { token: admin },
      )
      await anonymous.waitFor(about(marker.body['@id']))
      expect(anonymous.messages.some(about(title.body['@id']))).toBe(false)
      expect(hub.updates.some((u) => u.topics.includes(`${BASE}${title.body['@id']}`))).toBe(false)
    })
  })
})

describe('private updates', () => {
  it('attack: an anonymous subscriber must never receive a draft; an admin subscriber (the cookie) does, as a private update', async () => {
    await anonymousAndAdmin(async (anonymous, privileged) => {
      const draft = await server.post(
        '/_api/component/html_contents',
        { html: '<p>secret draft</p>' },
        { token: admin },
      )
      expect(draft.status).toBe(201)
      const iri = draft.body['@id'] as string
      const message = await privileged.waitFor(about(iri))
      expect(json(message).html).toBe('<p>secret draft</p>')
      expect(hub.updates.find((u) => u.id === message.id)!.private).toBe(true)
      // A public update sent after it reaches the anonymous subscriber: the draft, sent before, did not.
      const marker = await server.post(
        '/_api/component/html_contents',
        { html: '<p>after</p>', publishedAt: PAST },
        { token: admin },
      )
      await anonymous.waitFor(about(marker.body['@id']))
      expect(anonymous.messages.some(about(iri))).toBe(false)
      expect(anonymous.messages.some((m) => m.data.includes('secret draft'))).toBe(false)
    })
  })

  it('editing a published record: the draft twin goes privately; publishing it sends the new content publicly and the draft delete privately', async () => {
    const live = await server.post(
      '/_api/component/html_contents',
      { html: '<p>old</p>', publishedAt: PAST },
      { token: admin },
    )
    const iri = live.body['@id'] as string
    await realtimeIdle(server.payload)
    await anonymousAndAdmin(async (anonymous, privileged) => {
      const draft = await server.patch(iri, { html: '<p>new</p>' }, { token: admin })
      const draftIri = draft.body['@id'] as string
      const draftMessage = await privileged.waitFor(about(draftIri))
      expect(json(draftMessage).publishedResource).toBe(iri)
      await server.patch(draftIri, { publishedAt: PAST }, { token: admin })
      const published = await anonymous.waitFor((m) => about(iri)(m) && json(m).html === '<p>new</p>')
      expect(hub.updates.find((u) => u.id === published.id)!.private).toBe(false)
      const gone = await privileged.waitFor((m) => about(draftIri)(m) && Object.keys(json(m)).length === 1)
      expect(hub.updates.find((u) => u.id === gone.id)!.private).toBe(true)
      expect(anonymous.messages.some(about(draftIri))).toBe(false)
    })
  })

  it('a write to a component held by a page data record also publishes that page data', async () => {
    const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'rt-layout' } as never })
    const template = await server.payload.create({
      collection: 'pages',
      data: { reference: 'rt-template', title: 'T', layout: layout.id, isTemplate: true } as never,
    })
    const component = await server.post(
      '/_api/component/html_contents',
      { html: '<p>held</p>', publishedAt: PAST },
      { token: admin },
    )
    const data = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: 'Holder', page: `/_api/_/pages/${template.id}`, htmlContent: component.body['@id'] },
      { token: admin },
    )
    expect(data.status).toBe(201)
    await realtimeIdle(server.payload)
    await anonymousAndAdmin(async (anonymous) => {
      const id = (component.body['@id'] as string).split('/').pop()
      // Access overridden (the service's own Local API write): the live record changes in place.
      await server.payload.update({
        collection: 'html_contents',
        id: id!,
        data: { uiClassNames: ['changed'] } as never,
      })
      await anonymous.waitFor(about(component.body['@id']))
      const holder = await anonymous.waitFor(about(data.body['@id']))
      expect(json(holder)).toEqual((await server.get(data.body['@id'])).body)
      expect(hub.updates.find((u) => u.id === holder.id)!.topics).toEqual([`${BASE}${data.body['@id']}`])
    })
  })
})

describe('flags', () => {
  it('`realtime: true` is an alias of `mercure: true`; neither: off', () => {
    const resource = (declaration: Record<string, unknown>) => ({
      ...getRegistry(server.payload.config).bySlug('titles')!,
      meta: defineComponent({ shortName: 'Flagged', ...declaration }).custom!.cwa as never,
    })
    expect(isRealtime(server.payload, resource({ realtime: true }))).toBe(true)
    expect(isRealtime(server.payload, resource({ mercure: true }))).toBe(true)
    expect(isRealtime(server.payload, resource({}))).toBe(false)
  })
})

describe('a hub that is down', () => {
  it('never fails the write: the update is retried briefly, then dropped with an error log', async () => {
    const down = await startMercureHub({ publisherSecret: SECRET })
    const url = down.url
    await down.close()
    const other = await startTestServer({
      options: { mercure: { url, jwtSecret: SECRET, retries: 2, retryDelay: 20 } },
    })
    const errors = captureLogs(other.payload, 'error')
    const warnings = captureLogs(other.payload, 'warn')
    try {
      const token = await other.tokenFor('ROLE_ADMIN')
      const started = Date.now()
      const created = await other.post(
        '/_api/component/html_contents',
        { html: '<p>still saved</p>', publishedAt: PAST },
        { token },
      )
      expect(created.status).toBe(201)
      expect(Date.now() - started).toBeLessThan(2000)
      expect((await other.get(created.body['@id'])).status).toBe(200)
      await realtimeIdle(other.payload)
      expect(warnings.calls.filter(([, message]) => message === 'Mercure update failed; retrying')).toHaveLength(2)
      const dropped = errors.calls.filter(
        ([, message]) => message === 'Mercure update dropped: the hub could not be reached',
      )
      expect(dropped).toHaveLength(1)
      expect((dropped[0]![0] as { topic: string }).topic.endsWith(created.body['@id'])).toBe(true)
    } finally {
      errors.restore()
      warnings.restore()
      await other.close()
    }
  })
})

describe('with the CWA Nuxt module’s profile, IRIs without the prefix (compatIrisWithoutPrefix)', () => {
  it('private updates and deletes carry the IRIs as the API serves them, as public updates do (the module matches them by @id)', async () => {
    const bare = await startTestServer({
      options: {
        compat: 'cwa-nuxt',
        compatIrisWithoutPrefix: true,
        mercure: { url: hub.url, publicUrl: PUBLIC_HUB, jwtSecret: SECRET, topicBase: BASE, retries: 0 },
      },
    })
    try {
      const token = await bare.tokenFor('ROLE_ADMIN')
      const me = await bare.get('/_api/me', { token })
      const cookie = me.headers
        .getSetCookie()
        .find((c) => c.startsWith('mercureAuthorization='))!
        .split(';')[0]!
      const live = await bare.post('/_api/component/html_contents', { html: '<p>v1</p>', publishedAt: PAST }, { token })
      const iri = live.body['@id'] as string
      expect(iri).toMatch(/^\/component\/html_contents\//)
      await realtimeIdle(bare.payload)
      const privileged = await subscribe(hub.url, ['*'], { headers: { cookie } })
      try {
        const draft = await bare.patch(`/_api${iri}`, { html: '<p>v2</p>' }, { token })
        const draftIri = draft.body['@id'] as string
        const draftMessage = await privileged.waitFor(about(draftIri))
        expect(json(draftMessage).publishedResource).toBe(iri)
        expect(draftMessage.data).not.toContain('/_api/')
        await bare.patch(`/_api${draftIri}`, { publishedAt: PAST }, { token })
        const gone = await privileged.waitFor((m) => about(draftIri)(m) && Object.keys(json(m)).length === 1)
        expect(json(gone)).toEqual({ '@id': draftIri })
      } finally {
        privileged.close()
      }
    } finally {
      await realtimeIdle(bare.payload)
      await bare.close()
    }
  })
})

/**
 * Issue 28: a feature a third party ships (test/core/thirdParty/announcements.ts,
 * written against the front door only) brings everything through its
 * declaration alone. The app adds it with one line, `features:
 * [announcementsFeature]`, and sets its option; nothing else names it. Its
 * options are resolved with their defaults and checked, its place among the
 * features comes from its `after`, its collection and write listener are
 * wired, its endpoints are routed and documented with their security and
 * cache policy enforced by the pipeline, its admin panel is on the
 * dashboard, and its own export works on the app's Payload.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { checkOptionKeys, type CwaFeature, resolveOptions } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'
import { AnnouncementsPanel } from './thirdParty/AnnouncementsPanel'
import { announcementsFeature, latestAnnouncement, seenWrites } from './thirdParty/announcements'

let site: MinimalSite

beforeAll(async () => {
  site = await startMinimalSite({
    options: { features: [announcementsFeature], announcements: { fallback: 'Hello from Acme', maxAgeSeconds: 30 } },
  })
})
afterAll(async () => {
  await site?.close()
})

const assembled = () =>
  (site.payload.config.custom.cwa as { features: CwaFeature[] }).features.map((feature) => feature.name)

describe('a third-party feature, added by its declaration alone', () => {
  it('its options resolve with its defaults, are checked, and join the key check (a typo names the closest key)', () => {
    expect(resolveOptions({ features: [announcementsFeature] }).announcements).toEqual({
      fallback: 'Welcome',
      maxAgeSeconds: 60,
    })
    expect(site.payload.config.custom.cwa.options.announcements).toEqual({
      fallback: 'Hello from Acme',
      maxAgeSeconds: 30,
    })
    expect(() => resolveOptions({ features: [announcementsFeature], announcements: { maxAgeSeconds: -1 } })).toThrow(
      /announcements\.maxAgeSeconds must be a whole number/,
    )
    // The key `fallbak` does not exist: refused, naming the feature's key (its type refuses it too, hence `never`).
    const typo = { features: [announcementsFeature], announcements: { fallbak: 'x' } }
    expect(() => checkOptionKeys(typo)).toThrow(/announcements\.fallback/)
    expect(() => resolveOptions(typo as never)).toThrow(/announcements\.fallback/)
    // Without the feature its key is unknown: an option of a feature that is not there is a mistake.
    expect(() => resolveOptions({ announcements: { fallback: 'x' } })).toThrow(/announcements/)
  })

  it('its place comes from its `after`; a name that is no feature, two features of one name and a list that is not one are refused', () => {
    expect(assembled().indexOf('acme-announcements')).toBeGreaterThan(assembled().indexOf('httpCache'))
    expect(() => resolveOptions({ features: [{ name: 'acme-x', after: ['nothing'] }] })).toThrow(
      /acme-x must come after "nothing", which is not a feature/,
    )
    expect(() => resolveOptions({ features: [{ name: 'users' }] })).toThrow(/two features are named "users"/)
    expect(() => resolveOptions({ features: 'announcements' as never })).toThrow(/features must be a list of features/)
  })

  it('its endpoint with security: anonymous 401, ROLE_USER 403, refused before the handler; ROLE_ADMIN posts, bad input is a 422', async () => {
    const post = (token?: string, text: unknown = 'Refused') =>
      site.post('/_api/_/announcements', { text }, token ? { token } : {})
    expect((await post()).status).toBe(401)
    expect((await post(await site.tokenFor('ROLE_USER'))).status).toBe(403)
    expect(await latestAnnouncement(site.payload)).toBeNull()
    const admin = await site.tokenFor('ROLE_ADMIN')
    const refused = await post(admin, '  ')
    expect(refused.status).toBe(422)
    expect(refused.body.violations).toEqual([expect.objectContaining({ propertyPath: 'text' })])
    const posted = await post(admin, 'Big news')
    expect(posted.status).toBe(201)
    expect(posted.headers.get('cache-control')).toMatch(/no-store/)
    expect(posted.body).toMatchObject({ '@type': 'Announcement', text: 'Big news' })
    expect(posted.body['@context']).toBeDefined()
  })

  it('its public endpoint: a JSON-LD node made by the serializer, with its cache policy from its own option', async () => {
    const banner = await site.get('/_api/_/announcements/banner')
    expect(banner.status).toBe(200)
    expect(banner.body).toMatchObject({
      '@id': '/_api/_/announcements/banner',
      '@type': 'Banner',
      text: 'Big news',
    })
    expect(banner.headers.get('cache-control')).toMatch(/max-age=30\b/)
  })

  it('its collection holds the post and its own export reads it through the Local API; its write listener sees the API writes', async () => {
    expect(await latestAnnouncement(site.payload)).toBe('Big news')
    const layout = await site.post(
      '/_api/_/layouts',
      { reference: 'acme' },
      { token: await site.tokenFor('ROLE_ADMIN') },
    )
    expect(layout.status).toBe(201)
    expect(seenWrites.map(({ type, iri }) => ({ type, iri }))).toContainEqual({
      type: 'create',
      iri: layout.body['@id'],
    })
  })

  it('its declared input (docs/plugin-authors.md quotes it) refuses a body without text before the handler, and documents it', async () => {
    const source = readFileSync(new URL('./thirdParty/announcements.ts', import.meta.url), 'utf8')
    const declaration = /const announcementInput = [\s\S]*?\n\)\n/.exec(source)![0].trim()
    expect(readFileSync(new URL('../../docs/plugin-authors.md', import.meta.url), 'utf8')).toContain(declaration)
    const admin = await site.tokenFor('ROLE_ADMIN')
    for (const body of [{}, { text: 3 }, { text: '  ' }]) {
      const refused = await site.post('/_api/_/announcements', body, { token: admin })
      expect(refused.status).toBe(422)
      expect(refused.body.violations).toEqual([
        expect.objectContaining({ propertyPath: 'text', message: 'An announcement needs a text.' }),
      ])
    }
    const docs = await site.get('/_api/docs.json', { headers: { accept: 'application/json' } })
    expect(docs.body.paths['/_api/_/announcements'].post.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: { text: { type: 'string', pattern: '\\S', description: 'The banner text.' } },
      required: ['text'],
    })
  })

  it('its endpoints are documented in the OpenAPI document like the built-in ones', async () => {
    const docs = await site.get('/_api/docs.json', { headers: { accept: 'application/json' } })
    expect(docs.body.paths['/_api/_/announcements/banner'].get.operationId).toBe('getAnnouncementBanner')
    expect(docs.body.paths['/_api/_/announcements'].post.operationId).toBe('postAnnouncement')
  })

  it('its admin panel is on the dashboard, after the app and the built-in features', () => {
    const panels = site.payload.config.admin.components.beforeDashboard ?? []
    expect(panels).toContain('/test/core/thirdParty/AnnouncementsPanel#AnnouncementsPanel')
    expect(typeof AnnouncementsPanel).toBe('function')
  })
})

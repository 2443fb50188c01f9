import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { CollectionConfig } from 'payload'
import { defineComponent } from 'payload-cwa'
import { withAdminTitles } from '../../plugins/cwa/dist/features/adminTitles/config.js'
import { withReadableLabels } from '../../plugins/cwa/dist/features/adminTitles/labels.js'
import { postFixture } from '../support/fixtures'
import { formData, png } from '../support/uploadFiles'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'

/**
 * A readable admin panel: every record has a stored title (adminTitle)
 * derived from its content, kept up to date on every write, searchable
 * through Payload REST (what the admin's list search and relation pickers
 * call), never served by the JSON-LD API, and never showing a draft's
 * content to anyone who may not read that draft.
 */

let server: TestServer
let admin: string
/** The admin's Payload token (Payload REST, as the admin panel calls it). */
let adminRest: string
let counter = 0
const ref = (name: string) => `${name}-${++counter}`
const PAST = '2020-01-01T00:00:00.000Z'

const create = (path: string, body: Record<string, unknown>) => postFixture(server, path, body, admin)

/** A record as Payload REST (the admin panel's API) gives it, read as the admin. */
async function rest(collection: string, id: string): Promise<Record<string, any>> {
  const response = await server.get(`/api/${collection}/${id}?depth=0`, {
    headers: { authorization: `JWT ${adminRest}` },
  })
  expect(response.status).toBe(200)
  return response.body
}

/** A Payload REST search by title, as the admin (`asAdmin`) or anonymously. */
async function search(collection: string, text: string, asAdmin = false): Promise<string[]> {
  const headers: Record<string, string> = asAdmin ? { authorization: `JWT ${adminRest}` } : {}
  const response = await server.get(
    `/api/${collection}?depth=0&limit=100&where[adminTitle][like]=${encodeURIComponent(text)}`,
    { headers },
  )
  expect(response.status).toBe(200)
  return response.body.docs.map((doc: { id: string }) => doc.id)
}

async function group(reference = ref('group')): Promise<string> {
  return (await create('/_api/_/component_groups', { reference, location: 'main' }))['@id']
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  await server.createUser('titles_editor', ['ROLE_ADMIN'])
  const login = await server.request(
    'POST',
    '/api/users/login',
    { username: 'titles_editor', password: PASSWORD },
    { contentType: 'application/json' },
  )
  expect(login.status).toBe(200)
  adminRest = login.body.token
})
afterAll(async () => {
  await server?.close()
})

describe('a component is named by its content', () => {
  it('a Title by its text, kept out of the JSON-LD output, updated on every edit', async () => {
    const title = await create('/_api/component/titles', { title: 'Opening hours' })
    expect(title).not.toHaveProperty('adminTitle')
    expect((await server.get(title['@id'])).body).not.toHaveProperty('adminTitle')
    expect((await rest('titles', title.id)).adminTitle).toBe('Opening hours')
    const patched = await server.patch(title['@id'], { title: 'Closing hours' }, { token: admin })
    expect(patched.status).toBe(200)
    expect((await rest('titles', title.id)).adminTitle).toBe('Closing hours')
  })

  it('an HtmlContent by the first words of its text, tags dropped, cut at a word with an ellipsis', async () => {
    const words = 'The quick brown fox jumps over the lazy dog and keeps running far beyond the horizon'
    const html = await create('/_api/component/html_contents', {
      html: `<h2>${words.slice(0, 19)}</h2><p>${words.slice(20)} &amp; more</p>`,
      publishedAt: PAST,
    })
    const stored = (await rest('html_contents', html.id)).adminTitle as string
    expect(stored.length).toBeLessThanOrEqual(60)
    expect(stored.startsWith('The quick brown fox jumps over the lazy dog')).toBe(true)
    expect(stored.endsWith('…')).toBe(true)
    expect(stored).not.toMatch(/[<>]/)
  })

  it('a NavigationLink by its label; one with nothing to show by its type and short id', async () => {
    const link = await create('/_api/component/navigation_links', { label: 'Contact us', rawPath: '/contact' })
    expect((await rest('navigation_links', link.id)).adminTitle).toBe('Contact us')
    const bare = await create('/_api/component/navigation_links', {})
    expect((await rest('navigation_links', bare.id)).adminTitle).toBe(`Navigation link ${bare.id.slice(0, 8)}`)
  })

  it("an Image by its file name as uploaded: no storage token, no extension (the demo's adminTitle, issue 23)", async () => {
    const image = await create('/_api/component/images', {})
    const upload = await fetch(`${server.url}${image['@id']}/upload`, {
      method: 'POST',
      headers: { accept: 'application/ld+json', authorization: `Bearer ${admin}` },
      body: formData([{ name: 'file', filename: 'sunset-over-the-bay.png', bytes: await png(), type: 'image/png' }]),
    })
    expect(upload.status).toBe(200)
    const { filename } = (await upload.json()) as { filename: string }
    expect(filename).toMatch(/sunset-over-the-bay-[0-9a-f]{12}\.png$/)
    expect((await rest('images', image.id)).adminTitle).toBe('sunset over the bay')
  })
})

describe('search by title (the admin list search and relation pickers)', () => {
  it('where[adminTitle][like] finds a component by part of its title, case-insensitively', async () => {
    const marker = `Zebra${Date.now()}`
    const title = await create('/_api/component/titles', { title: `The ${marker} crossing` })
    await create('/_api/component/titles', { title: 'Something else' })
    expect(await search('titles', marker.toLowerCase(), true)).toEqual([title.id])
    expect(await search('titles', marker.toLowerCase())).toEqual([title.id])
  })

  it('every component type and positions list adminTitle as their title and searchable field', async () => {
    for (const slug of [
      'html_contents',
      'titles',
      'navigation_links',
      'images',
      'file_downloads',
      'component_positions',
      'pages',
    ]) {
      const { config } = server.payload.collections[slug as never] as unknown as { config: CollectionConfig }
      expect(config.admin?.useAsTitle).toBe('adminTitle')
      expect(config.admin?.listSearchableFields).toContain('adminTitle')
    }
    expect(
      (server.payload.collections['component_groups' as never] as unknown as { config: CollectionConfig }).config.admin
        ?.useAsTitle,
    ).toBe('reference')
  })
})

describe('pages and positions', () => {
  it('a page by its title and reference', async () => {
    const layout = (await create('/_api/_/layouts', { reference: ref('layout') }))['@id']
    const reference = ref('about')
    const page = await create('/_api/_/pages', { reference, title: 'About us', layout })
    expect((await rest('pages', page.id)).adminTitle).toBe(`About us (${reference})`)
    expect(page).not.toHaveProperty('adminTitle')
  })

  it('a position as "group › component", following a rename of either', async () => {
    const reference = ref('sidebar')
    const groupIri = await group(reference)
    const title = await create('/_api/component/titles', { title: 'Welcome' })
    const position = await create('/_api/_/component_positions', { componentGroup: groupIri, component: title['@id'] })
    expect(position).not.toHaveProperty('adminTitle')
    expect((await rest('component_positions', position.id)).adminTitle).toBe(`${reference} › Welcome`)

    expect((await server.patch(title['@id'], { title: 'Welcome back' }, { token: admin })).status).toBe(200)
    expect((await rest('component_positions', position.id)).adminTitle).toBe(`${reference} › Welcome back`)
    expect((await server.patch(groupIri, { reference: `${reference}-renamed` }, { token: admin })).status).toBe(200)
    expect((await rest('component_positions', position.id)).adminTitle).toBe(`${reference}-renamed › Welcome back`)
  })

  it('a position with no component is legal (the contract: orphaned) and says so in its title', async () => {
    const reference = ref('empty')
    const position = await create('/_api/_/component_positions', { componentGroup: await group(reference) })
    expect((await rest('component_positions', position.id)).adminTitle).toBe(
      `${reference} › (empty: no component, no page data property)`,
    )
  })
})

describe("a title is as private as its record's content", () => {
  it("a draft's title reaches no anonymous caller: not through its row, not through the position holding it", async () => {
    const secret = `Secret${Date.now()}`
    const draft = await create('/_api/component/html_contents', { html: `<p>${secret} launch plans</p>` })
    expect(draft.publishedAt ?? null).toBeNull()
    const reference = ref('teaser')
    const position = await create('/_api/_/component_positions', {
      componentGroup: await group(reference),
      component: draft['@id'],
    })

    // The editor sees the draft's own title; the position (public) shows type and id only.
    expect((await rest('html_contents', draft.id)).adminTitle).toContain(secret)
    expect(await search('html_contents', secret, true)).toEqual([draft.id])
    const positionTitle = (await rest('component_positions', position.id)).adminTitle
    expect(positionTitle).toBe(`${reference} › Rich text ${draft.id.slice(0, 8)}`)

    // Anonymous: no search hit anywhere, no title in any read.
    expect(await search('html_contents', secret)).toEqual([])
    expect(await search('component_positions', secret)).toEqual([])
    expect((await server.get(`/api/html_contents/${draft.id}`)).status).not.toBe(200)
    const anonymousPosition = await server.get(`/api/component_positions/${position.id}?depth=1`)
    expect(anonymousPosition.text).not.toContain(secret)
    expect((await server.get(`/_api/_/component_positions/${position.id}`)).text).not.toContain(secret)
    expect((await server.get(`/api/component_positions?depth=1&limit=200`)).text).not.toContain(secret)

    // Published: the position shows its title.
    expect((await server.patch(draft['@id'], { publishedAt: PAST }, { token: admin })).status).toBe(200)
    expect((await rest('component_positions', position.id)).adminTitle).toBe(`${reference} › ${secret} launch plans`)
  })

  it("a live record's pending draft keeps its edits out of the live title and the position's", async () => {
    const live = await create('/_api/component/html_contents', { html: '<p>Live words</p>', publishedAt: PAST })
    const reference = ref('live')
    const position = await create('/_api/_/component_positions', {
      componentGroup: await group(reference),
      component: live['@id'],
    })
    const edited = await server.patch(live['@id'], { html: '<p>Pending words</p>' }, { token: admin })
    expect(edited.status).toBe(200)
    expect((await rest('html_contents', live.id)).adminTitle).toBe('Live words')
    expect((await rest('component_positions', position.id)).adminTitle).toBe(`${reference} › Live words`)
    expect(await search('html_contents', 'Pending words')).toEqual([])
  })
})

describe('labels', () => {
  it('every collection has singular and plural labels in words', () => {
    const labels = (slug: string) =>
      (server.payload.collections[slug as never] as unknown as { config: CollectionConfig }).config.labels
    expect(labels('component_groups')).toEqual({ singular: 'Component group', plural: 'Component groups' })
    expect(labels('component_positions')).toEqual({ singular: 'Component position', plural: 'Component positions' })
    expect(labels('html_contents')).toEqual({ singular: 'Rich text', plural: 'Rich text' })
    expect(labels('navigation_links')).toEqual({ singular: 'Navigation link', plural: 'Navigation links' })
    expect(labels('newsletter_signups')).toEqual({ singular: 'Newsletter signup', plural: 'Newsletter signups' })
    for (const { slug, labels: own } of server.payload.config.collections) {
      const { singular, plural } = own as { singular: string; plural: string }
      if (slug.startsWith('payload-')) continue
      expect([slug, /_/.test(singular) || /_/.test(plural)]).toEqual([slug, false])
    }
  })

  it('labels a collection declared are kept', () => {
    const declared = withReadableLabels({ slug: 'notes', labels: { singular: 'Memo', plural: 'Memos' }, fields: [] })
    expect(declared.labels).toEqual({ singular: 'Memo', plural: 'Memos' })
  })
})

describe("a plugin author's component type", () => {
  const hookOf = (collection: CollectionConfig) =>
    collection.hooks!.beforeChange![0] as (args: Record<string, unknown>) => Record<string, unknown>
  const complete = (collection: CollectionConfig) => withAdminTitles(withReadableLabels(collection))

  it('gets a title from its first text field with no extra work', () => {
    const Card = complete(
      defineComponent({
        shortName: 'Card',
        fields: [
          { name: 'size', type: 'number' },
          { name: 'heading', type: 'text' },
          { name: 'body', type: 'textarea' },
        ],
      }),
    )
    expect(hookOf(Card)({ data: { heading: '', body: 'Body <em>text</em>' }, originalDoc: undefined }).adminTitle).toBe(
      'Body text',
    )
    expect(hookOf(Card)({ data: { heading: 'Heading', body: 'Body' }, originalDoc: undefined }).adminTitle).toBe(
      'Heading',
    )
    expect(Card.labels).toEqual({ singular: 'Card', plural: 'Cards' })
  })

  it('can name its records itself (defineComponent adminTitle)', () => {
    const Quote = complete(
      defineComponent({
        shortName: 'Quote',
        adminTitle: (doc) => `“${String(doc.text ?? '')}” (${String(doc.author ?? 'anonymous')})`,
        fields: [
          { name: 'text', type: 'text' },
          { name: 'author', type: 'text' },
        ],
      }),
    )
    expect(hookOf(Quote)({ data: { text: 'Less is more' }, originalDoc: { author: 'Mies' } }).adminTitle).toBe(
      '“Less is more” (Mies)',
    )
  })
})

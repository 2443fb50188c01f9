/**
 * Issue 39, previews and live refresh on the reference site's own website (payload-cwa/next), in chromium:
 * - Live Preview in the admin panel opens the website through a one-minute link (/_preview): the frame shows the
 *   draft of a block with the editor's rights, under a preview bar, while anonymous visitors still get the
 *   published text; a save in the admin shows in the frame; leaving the preview shows the published site again;
 * - a forged or replayed link (attack: a preview without an editor) is refused with a page saying why, and a preview
 *   token never writes (attack: a leaked preview cookie used to change content);
 * - an anonymous visitor's page refreshes itself when a change to a block it shows is published (the hub).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Frame, Page } from 'playwright-core'
import { openBrowser, screenshot, signIn, startAdminSite, type AdminSite, type TestBrowser } from '../support/browser'
import { waitFor } from '../support/wait'

let site: AdminSite
let browser: TestBrowser
let page: Page

const PUBLISHED = 'This site is served by payload-cwa.'

/** A same-origin Payload REST request from the signed-in page. */
async function inPage(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        credentials: 'include',
        headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
      return { status: response.status, body: await response.json().catch(() => null) }
    },
    { method, path, body },
  )
}

/** Whether a frame shows a text (false while it navigates). */
const shows = (frame: Frame, text: string) =>
  frame.content().then(
    (html) => html.includes(text),
    () => false,
  )

async function anonymousHome(): Promise<string> {
  return (await fetch(`${site.base}/`)).text()
}

beforeAll(async () => {
  // The embedded hub (off for the other test files) announces changes to the visitors' pages.
  site = await startAdminSite({ MERCURE_EMBEDDED: '1' })
  browser = await openBrowser()
  page = await browser.newPage()
  await signIn(page, site.base, await site.superAdmin())
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

describe('Live Preview on the website', () => {
  let home: { id: string; title: string }
  let frame: Frame

  it('shows the draft of a block in the frame, with the editor’s rights; visitors still get the published text', async () => {
    home = (await inPage('GET', '/api/pages?where[reference][equals]=home&depth=0')).body.docs[0]
    const live = (await inPage('GET', '/api/html_contents?where[html][like]=served%20by&depth=0')).body.docs[0]
    const draft = await inPage('PATCH', `/api/html_contents/${live.id}?depth=0`, {
      html: '<p>A draft only editors see.</p>',
    })
    expect(draft.status).toBe(200)
    expect(await anonymousHome()).not.toContain('A draft only editors see.')

    await page.goto(`${site.base}/admin/collections/pages/${home.id}`)
    await page.getByRole('button', { name: 'Live Preview' }).click()
    const iframe = page.locator('#live-preview-iframe')
    await iframe.waitFor({ timeout: 30_000 })
    // The link the panel opens: the website's preview route, a token that lives a minute, the page's path.
    const src = new URL((await iframe.getAttribute('src'))!, site.base)
    expect(src.pathname).toBe('/_preview')
    expect(src.searchParams.get('path')).toBe('/')
    const claims = JSON.parse(Buffer.from(src.searchParams.get('token')!.split('.')[1]!, 'base64url').toString())
    expect(claims.exp - claims.iat).toBe(60)
    expect(claims.scope).toBe('preview-link')

    frame = (await (await iframe.elementHandle())!.contentFrame())!
    await waitFor(() => shows(frame, 'A draft only editors see.'), {
      timeout: 30_000,
      message: 'the draft in the Live Preview frame',
    })
    expect(new URL(frame.url()).pathname).toBe('/')
    expect(await frame.locator('aside.preview-bar').textContent()).toMatch(/Preview: drafts are shown/)
    await screenshot(page, 'site-live-preview')
    // Nobody else sees it: the page for a visitor is the published one.
    const visitor = await anonymousHome()
    expect(visitor).toContain(PUBLISHED)
    expect(visitor).not.toContain('preview-bar')
  }, 180_000)

  it('renders every demo page as the editor’s preview in chromium: the bar, no console error, no failed request', async () => {
    // The admin's browser holds the preview's cookies now (set in the frame, same site): a tab of its own.
    const tab = await browser.newPage()
    const problems: string[] = []
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${tab.url()}: console: ${message.text()}`)
    })
    // The hub's stream is closed by each navigation (ERR_ABORTED): the browser's own doing, not a failure.
    tab.on('requestfailed', (request) => {
      if (!(request.url().includes('/.well-known/mercure') && request.failure()?.errorText === 'net::ERR_ABORTED'))
        problems.push(`${request.url()}: failed (${request.failure()?.errorText})`)
    })
    tab.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.url()}: ${response.status()}`)
    })
    try {
      for (const path of ['/', '/blog', '/blog/first-article', '/blog/second-article', '/contact']) {
        const response = await tab.goto(`${site.base}${path}`, { waitUntil: 'load' })
        // A preview is never a visitor's kept page, nor kept for one (src/server/websitePages.ts).
        expect(response!.headers()['cwa-read-model']).toBeUndefined()
        await tab.locator('aside.preview-bar').waitFor()
        expect(await tab.locator('main').first().isVisible()).toBe(true)
      }
      expect(await tab.content()).toContain('<form class="cwa-form"')
    } finally {
      await tab.close()
    }
    expect({ problems, pageErrors: browser.pageErrors }).toEqual({ problems: [], pageErrors: [] })
  }, 120_000)

  it('shows a save made in the admin panel in the frame', async () => {
    await page.locator('#field-title').fill('Home, previewed')
    await page.locator('#action-save').click()
    await waitFor(
      () =>
        frame.title().then(
          (title) => title === 'Home, previewed',
          () => false,
        ),
      {
        timeout: 30_000,
        message: 'the frame to show the saved title',
      },
    )
  }, 120_000)

  it('leaves the preview: the published text again, no preview bar', async () => {
    await frame.locator('aside.preview-bar a').click()
    await waitFor(() => shows(frame, PUBLISHED), {
      timeout: 30_000,
      message: 'the published text after leaving the preview',
    })
    expect(await frame.locator('aside.preview-bar').count()).toBe(0)
  }, 60_000)
})

describe('preview links and tokens (attacks)', () => {
  it('a forged link, a link token used as a credential, and a replayed preview token used to write are all refused', async () => {
    const forged = await fetch(`${site.base}/_preview?path=/&token=eyJhbGciOiJub25lIn0.e30.`, { redirect: 'manual' })
    expect(forged.status).toBe(401)
    expect(await forged.text()).toContain('This is not a preview link.')
    expect(forged.headers.get('set-cookie') ?? '').not.toMatch(/cwa_preview|__prerender_bypass/)
    const empty = await fetch(`${site.base}/_preview?path=/`, { redirect: 'manual' })
    expect(empty.status).toBe(400)

    // A real link, as the panel makes it: the exchange gives a token that reads drafts and never writes.
    await page.goto(
      `${site.base}/admin/collections/pages/${(await inPage('GET', '/api/pages?limit=1')).body.docs[0].id}`,
    )
    const iframe = page.locator('#live-preview-iframe')
    if (!(await iframe.count())) await page.getByRole('button', { name: 'Live Preview' }).click()
    const link = new URL((await iframe.getAttribute('src'))!, site.base)
    const linkToken = link.searchParams.get('token')!
    const asBearer = await fetch(`${site.base}/_api/_/pages`, { headers: { authorization: `Bearer ${linkToken}` } })
    expect(asBearer.status).toBe(401)
    const exchanged = await fetch(`${site.base}/_api/_/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: linkToken }),
    })
    expect(exchanged.status).toBe(200)
    const { token } = (await exchanged.json()) as { token: string }
    const read = await fetch(`${site.base}/_api/_/pages`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/ld+json' },
    })
    expect(read.status).toBe(200)
    const write = await fetch(`${site.base}/_api/_/pages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/ld+json' },
      body: JSON.stringify({ reference: 'sneaky', title: 'Sneaky' }),
    })
    expect(write.status).toBe(403)
    expect(((await write.json()) as { detail: string }).detail).toBe('A preview token may only read.')
    // Nor does it sign anyone into the admin panel, sent as the API's session cookie.
    const me = await fetch(`${site.base}/api/users/me`, { headers: { cookie: `api_component=${token}` } })
    expect(((await me.json()) as { user: unknown }).user).toBeNull()
    // The exchange is refused for what is not a link (a preview token is not one).
    const again = await fetch(`${site.base}/_api/_/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    })
    expect(again.status).toBe(401)
  }, 120_000)
})

describe('visitors’ pages', () => {
  it('are kept in the read model (the second request a hit, the same page) until a write changes what they show', async () => {
    const visit = async () => {
      const response = await fetch(`${site.base}/blog`)
      return { source: response.headers.get('cwa-read-model'), html: await response.text() }
    }
    await visit()
    await waitFor(async () => (await visit()).source === 'hit', { timeout: 10_000, message: 'the kept page' })
    const [first, second] = [await visit(), await visit()]
    expect(second).toEqual(first)
    const blog = (await inPage('GET', '/api/pages?where[reference][equals]=blog&depth=0')).body.docs[0]
    expect((await inPage('PATCH', `/api/pages/${blog.id}?depth=0`, { title: 'The blog, renamed' })).status).toBe(200)
    const after = await visit()
    expect(after.source).toBe('miss')
    expect(after.html).toContain('<title>The blog, renamed</title>')
  }, 60_000)

  it('a visitor’s page shows a published change to a block it shows without a reload', async () => {
    const visitor = await browser.browser.newContext()
    try {
      const tab = await visitor.newPage()
      await tab.goto(`${site.base}/`)
      await tab.getByText(PUBLISHED).waitFor()
      await tab.evaluate(() => ((window as unknown as { marker: boolean }).marker = true))
      // Published at once: the live record's text changed through its draft's publication.
      const live = (await inPage('GET', '/api/html_contents?where[html][like]=served%20by&depth=0')).body.docs[0]
      const drafts = (await inPage('GET', `/api/html_contents?where[publishedResource][equals]=${live.id}&depth=0`))
        .body.docs
      const draft = drafts[0]
      expect(draft).toBeDefined()
      const published = await inPage('PATCH', `/api/html_contents/${draft.id}?depth=0`, {
        html: '<p>Published while you read.</p>',
        publishedAt: new Date(Date.now() - 1000).toISOString(),
      })
      expect(published.status).toBe(200)
      await tab.getByText('Published while you read.').waitFor({ timeout: 15_000 })
      // The same document: refreshed in place, not reloaded.
      expect(await tab.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true)
    } finally {
      await visitor.close()
    }
  }, 120_000)
})

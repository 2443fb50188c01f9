/**
 * Issue 39, the reference site renders its own website: `npm start` serves the demo's pages at their routes
 * (app/(site), payload-cwa/client through the API's handler in the same process, payload-cwa/react), server-side,
 * with landmarks, one h1, the blocks' content, a 404 for an unknown path and nothing loaded from another origin;
 * in chromium, no console error, no failed request, and the form's violations beside their field. It also guards
 * a bug found while building it: the Next.js app and the server each hold a copy of the package and share one
 * Payload, and a page holding a Collection component (the blog's, in an article's manifest) made the pipeline walk
 * the other copy's value as a plain object until the process ran out of memory.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { ChildProcess } from 'node:child_process'
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/database'
import { openBrowser, type TestBrowser } from '../support/browser'
import { ensureAdminBuild } from '../support/nextBuild'
import { cleanupSites, startSite, stopSite } from '../support/site'
import { waitFor } from '../support/wait'

let base: string
let child: ChildProcess
let database: string

beforeAll(async () => {
  await ensureAdminBuild()
  database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
  const site = await startSite({ DATABASE_URL: databaseUrl(database), ADMIN_PANEL: '1' }, 240_000)
  base = site.base
  child = site.child
  // The website is the Next.js app's: it answers once the app is prepared (after the APIs).
  await waitFor(async () => (await fetch(`${base}/`)).status === 200, {
    timeout: 120_000,
    interval: 100,
    message: 'the website to answer',
  })
}, 500_000)

afterAll(async () => {
  await stopSite(child)
  await cleanupSites()
  if (database) await dropDatabase(database)
})

/** A page's HTML without its scripts (Next.js' own payload), with its status. */
async function page(path: string): Promise<{ status: number; html: string; body: string }> {
  const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(20_000) })
  const html = await response.text()
  const body = html.slice(html.indexOf('<body')).replace(/<script[\s\S]*?<\/script>/g, '')
  return { status: response.status, html, body }
}

const decode = (text: string) =>
  text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** A fragment of HTML as the text a reader sees (tags out, white space folded). */
const textOf = (html: string) =>
  decode(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()

type Resource = Record<string, any>

/**
 * What the CWA Nuxt module shows of a page, from the JSON-LD answers it reads anonymously (docs/front-ends.md, "What
 * the module requests to render a page"): from the route, its page data and page, the layout and the groups, each
 * position's component (the `path` header on every read). Its texts (a rich text's, a title's, a link's label, the
 * page data's title) and its images (the original's contentUrl).
 */
async function moduleBlocks(path: string): Promise<{ texts: string[]; images: string[] }> {
  const byId = new Map<string, Resource>()
  const walk = async (iri: string): Promise<void> => {
    const key = iri.split('?')[0]!
    if (byId.has(key)) return
    byId.set(key, {})
    const response = await fetch(`${base}${iri}`, { headers: { accept: 'application/ld+json', path } })
    if (response.status !== 200) return
    const resource = (await response.json()) as Resource
    byId.set(key, resource)
    const links = ['pageData', 'page', 'layout', 'componentGroups', 'componentPositions', 'component'].flatMap(
      (name) =>
        name === 'componentPositions' && resource['@type'] !== 'ComponentGroup' ? [] : [resource[name]].flat(),
    )
    for (const link of links) if (typeof link === 'string') await walk(link)
  }
  await walk(`/_api/_/routes/${encodeURIComponent(path)}`)
  const texts: string[] = []
  const images: string[] = []
  for (const resource of byId.values()) {
    if (resource['@type'] === 'HtmlContent' && resource.html) texts.push(textOf(resource.html))
    if (resource['@type'] === 'Title' && resource.title) texts.push(resource.title)
    if (resource['@type'] === 'NavigationLink' && resource.label) texts.push(resource.label)
    if (resource['@type'] === 'BlogArticleData' && resource.title) texts.push(resource.title)
    const original = resource._metadata?.mediaObjects?.file?.find((file: Resource) => !file.imagineFilter)
    if (resource['@type'] === 'Image' && original) images.push(original.contentUrl)
  }
  return { texts, images }
}

const headings = (html: string) => [...html.matchAll(/<(h[1-6])[\s>]/g)].map((match) => match[1])

describe('the website', () => {
  it('serves the home page: header, main and footer, one h1, the text and the image, a skip link', async () => {
    const { status, html, body } = await page('/')
    expect(status).toBe(200)
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('<title>Home</title>')
    expect(body).toMatch(
      /<a class="skip" href="#main">[^<]+<\/a><header>.*<\/header><main id="main">.*<\/main><footer>/s,
    )
    expect(headings(body)).toEqual(['h1'])
    expect(body).toContain('Welcome</h1>')
    expect(body).toContain('<p>This site is served by payload-cwa.</p>')
    expect(body).toMatch(
      /<img class="cwa-image" src="[^"]+\/download\/file" srcSet="[^"]+ 1200w, [^"]+\/thumbnail 300w"/,
    )
    expect(body).toContain('<a class="cwa-link" href="/" aria-current="page">Home</a>')
  })

  it('serves each demo page by its route, an article through its template', async () => {
    const blog = await page('/blog')
    expect(blog.status).toBe(200)
    expect(blog.body).toContain('<li><a href="/blog/first-article">First article</a></li>')
    for (const [path, title, text] of [
      ['/blog/first-article', 'First article', 'The first article of the demo blog.'],
      ['/blog/second-article', 'Second article', 'The second article of the demo blog.'],
    ] as const) {
      const article = await page(path)
      expect(article.status).toBe(200)
      expect(article.html).toContain(`<title>${title}</title>`)
      expect(article.body).toContain(`<h1>${title}</h1>`)
      expect(article.body).toContain(`<p>${text}</p>`)
    }
    const contact = await page('/contact')
    expect(contact.status).toBe(200)
    expect(contact.body).toMatch(/<form class="cwa-form"/)
    expect(contact.body).toMatch(/<label for="example_form_email">/)
  })

  it('shows the text and images the CWA Nuxt module renders from: every block of the JSON-LD answers, page by page', async () => {
    for (const path of ['/', '/blog', '/blog/first-article', '/blog/second-article', '/contact']) {
      const shown = await moduleBlocks(path)
      expect(shown.texts.length + shown.images.length).toBeGreaterThan(0)
      const { body } = await page(path)
      const text = textOf(body)
      for (const expected of shown.texts)
        expect({ path, expected, shown: text.includes(expected) }).toEqual({ path, expected, shown: true })
      const sources = [...body.matchAll(/<img\b[^>]*?\ssrc="([^"]+)"/g)].map((match) => decode(match[1]!))
      for (const image of shown.images)
        expect({ path, image, shown: sources.includes(image) }).toEqual({ path, image, shown: true })
    }
  })

  it('answers a path no route has with a 404 and its page, in the HTML itself (no JavaScript needed)', async () => {
    for (const path of ['/no/such/page', '/no/such/page?with=query']) {
      const missing = await page(path)
      expect(missing.status).toBe(404)
      // Scripts left out: the page a browser without JavaScript shows.
      expect(missing.body).toMatch(/<main id="main"><h1>Page not found<\/h1>.*<a href="\/">Go to the home page<\/a>/s)
      expect(missing.html).toContain('<title>Page not found</title>')
    }
    expect((await fetch(`${base}/no/such/page`, { method: 'HEAD' })).status).toBe(404)
  })

  it('a forged X-Forwarded-Host (attack: cache or link poisoning) moves no image or form URL to another host', async () => {
    for (const path of ['/', '/contact']) {
      const response = await fetch(`${base}${path}`, { headers: { 'x-forwarded-host': 'evil.example' } })
      expect(response.status).toBe(200)
      const html = await response.text()
      expect(html).not.toContain('evil.example')
      expect(html).toContain(`${base}/_api/`)
    }
  })

  it('answers hostile paths (encoded slashes, NUL, dot segments, a very long one) with a 404 page, never a 500', async () => {
    for (const path of ['/%2e%2e/%2e%2e/etc/passwd', '/a%00b', '/blog/%2F%2F', '/%E2%80%AE', `/${'a/'.repeat(300)}x`]) {
      const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(20_000) })
      expect({ path, status: response.status }).toEqual({ path, status: 404 })
    }
  })

  it('loads nothing from another origin (scripts, styles, images, links in the head)', async () => {
    for (const path of ['/', '/blog/first-article', '/contact']) {
      const { html } = await page(path)
      const sources = [...html.matchAll(/<(?:script|img|link)\b[^>]*?\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
      expect(sources.length).toBeGreaterThan(0)
      for (const source of sources)
        expect({
          path,
          source,
          local: source.startsWith('/') || source.startsWith(base) || source.startsWith('data:'),
        }).toEqual({
          path,
          source,
          local: true,
        })
    }
  })

  it('shows every demo page in chromium with no console error and no failed request, and the form’s violations per field', async () => {
    const browser: TestBrowser = await openBrowser()
    try {
      const page = await browser.newPage()
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${page.url()}: console: ${message.text()}`)
      })
      page.on('requestfailed', (request) => problems.push(`${request.url()}: failed`))
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.url()}: ${response.status()}`)
      })
      for (const path of ['/', '/blog', '/blog/first-article', '/blog/second-article', '/contact']) {
        await page.goto(`${base}${path}`, { waitUntil: 'networkidle' })
        expect(await page.locator('h1, main').first().isVisible()).toBe(true)
      }
      // The listing's link opens the article.
      await page.goto(`${base}/blog`)
      await page.getByRole('link', { name: 'First article' }).click()
      await page.waitForURL(`${base}/blog/first-article`)
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('First article')
      expect({ problems, pageErrors: browser.pageErrors, offsite: browser.offsite }).toEqual({
        problems: [],
        pageErrors: [],
        offsite: [],
      })
      // The contact form (a client component): a wrong address is refused (the submit's 422, the one problem
      // expected), the message shown beside its field.
      await page.goto(`${base}/contact`, { waitUntil: 'networkidle' })
      await page.getByLabel('Email').fill('not an address')
      await page.getByRole('button', { name: 'Send' }).click()
      const error = page.locator('#example_form_email-errors')
      await error.waitFor({ timeout: 10_000 })
      expect(await error.textContent()).toMatch(/\S/)
      expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true')
      expect(problems.filter((problem) => !/\/submit: 422$|status of 422/.test(problem))).toEqual([])
      expect(problems.some((problem) => /\/submit: 422$/.test(problem))).toBe(true)
      expect(browser.pageErrors).toEqual([])
    } finally {
      await browser.close()
    }
  }, 120_000)
})

/**
 * Issue 39, the reference site renders its own website: `npm start` serves the demo's pages at their routes
 * (app/(site), payload-cwa/client through the API's handler in the same process, payload-cwa/react), server-side,
 * with landmarks, one h1, the blocks' content, a 404 for an unknown path and nothing loaded from another origin;
 * in chromium, no console error, no failed request, and the form's violations beside their field. It also guards
 * a bug found while building it: the Next.js app and the server each hold a copy of the package and share one
 * Payload, and a page holding a Collection component (the blog's, in an article's manifest) made the pipeline walk
 * the other copy's value as a plain object until the process ran out of memory.
 *
 * Then, on the same site (one site for the file: starting one costs seconds), the previews of drafts, visitors'
 * kept pages and live refresh (see their part below).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Frame, Page } from 'playwright-core'
import {
  openBrowser,
  requestInPage,
  screenshot,
  signIn,
  startAdminSite,
  type AdminSite,
  type TestBrowser,
} from '../support/browser'
import { waitFor } from '../support/wait'

let site: AdminSite
let base: string
let browser: TestBrowser
/** The signed-in editor's tab (the previews' tests). */
let admin: Page

const PUBLISHED = 'This site is served by payload-cwa.'

beforeAll(async () => {
  // One site for the website's tests and the previews' (the admin panel, the demo seeded, the embedded hub on: it
  // is off for the other test files), which change content: they come last.
  site = await startAdminSite({ MERCURE_EMBEDDED: '1' })
  base = site.base
  // The website is the Next.js app's: it answers once the app is prepared (after the APIs).
  await waitFor(async () => (await fetch(`${base}/`)).status === 200, {
    timeout: 120_000,
    interval: 100,
    message: 'the website to answer',
  })
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.stop()
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
    const own: TestBrowser = await openBrowser()
    try {
      const page = await own.newPage()
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${page.url()}: console: ${message.text()}`)
      })
      // The hub's stream is closed by each navigation (ERR_ABORTED): the browser's own doing, not a failure.
      page.on('requestfailed', (request) => {
        if (!(request.url().includes('/.well-known/mercure') && request.failure()?.errorText === 'net::ERR_ABORTED'))
          problems.push(`${request.url()}: failed`)
      })
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
      expect({ problems, pageErrors: own.pageErrors, offsite: own.offsite }).toEqual({
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
      expect(own.pageErrors).toEqual([])
    } finally {
      await own.close()
    }
  }, 120_000)
})

/** A same-origin request from the signed-in page (its own session cookie). */
const inPage = (method: string, path: string, body?: unknown) => requestInPage(admin, method, path, body)

/** Whether a frame shows a text (false while it navigates). */
const shows = (frame: Frame, text: string) =>
  frame.content().then(
    (html) => html.includes(text),
    () => false,
  )

async function anonymousHome(): Promise<string> {
  return (await fetch(`${site.base}/`)).text()
}

describe('Live Preview on the website', () => {
  beforeAll(async () => {
    browser = await openBrowser()
    admin = await browser.newPage()
    await signIn(admin, site.base, await site.superAdmin())
  }, 120_000)

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

    await admin.goto(`${site.base}/admin/collections/pages/${home.id}`)
    await admin.getByRole('button', { name: 'Live Preview' }).click()
    const iframe = admin.locator('#live-preview-iframe')
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
    await screenshot(admin, 'site-live-preview')
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
    await admin.locator('#field-title').fill('Home, previewed')
    await admin.locator('#action-save').click()
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
    await admin.goto(
      `${site.base}/admin/collections/pages/${(await inPage('GET', '/api/pages?limit=1')).body.docs[0].id}`,
    )
    const iframe = admin.locator('#live-preview-iframe')
    if (!(await iframe.count())) await admin.getByRole('button', { name: 'Live Preview' }).click()
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

/**
 * Issue 39, the reference site renders its own website: `npm start` serves the demo's pages at their routes
 * (app/(site), payload-cwa/client through the API's handler in the same process, payload-cwa/react), server-side,
 * with landmarks, one h1, the blocks' content, a 404 page for an unknown path, and nothing loaded from another
 * origin. It also guards a bug found while building it: the Next.js app and the server each hold a copy of the
 * package and share one Payload, and a page holding a Collection component (the blog's, in an article's manifest)
 * made the pipeline walk the other copy's value as a plain object until the process ran out of memory.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { ChildProcess } from 'node:child_process'
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/database'
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

  it('answers a path no route has with a 404 and its page (rendered by the browser: two root layouts)', async () => {
    const missing = await page('/no/such/page')
    expect(missing.status).toBe(404)
    expect(missing.html).toContain('Page not found')
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
})

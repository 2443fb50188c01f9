/**
 * Issue 16, the editors' admin panel in a real browser (Debian chromium,
 * every request off loopback blocked and failing the test): an editor
 * builds a page from a layout with two components through the page builder,
 * reorders them by dragging, publishes each with the admin's "Publish now", and the JSON-LD API serves the
 * published version in the new order; the route tree, the orphan report
 * (scan, delete, the alert's landing path) and an image upload resized in
 * the browser, with its variants shown. Screenshots go to test-results/.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { openBrowser, screenshot, signIn, startAdminSite, type AdminSite, type TestBrowser } from '../support/browser'
import { waitFor } from '../support/wait'

let site: AdminSite
let browser: TestBrowser
let page: Page

// A loaded 2-core CI machine (other browsers and sites beside this one) renders an admin view, or answers a scan, in
// tens of seconds: each step may take 90 s, each test 240 s (they take seconds on a quiet machine).
jest.setTimeout(240_000)

beforeAll(async () => {
  site = await startAdminSite()
  browser = await openBrowser()
  page = await browser.newPage()
  page.setDefaultTimeout(90_000)
  await signIn(page, site.base, await site.superAdmin())
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

/** A JSON-LD API call from the signed-in browser (its session cookies, its origin). */
async function api(path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ path, body }) => {
      const init: RequestInit =
        body === undefined
          ? {}
          : { method: 'POST', headers: { 'content-type': 'application/ld+json' }, body: JSON.stringify(body) }
      const response = await fetch(path, {
        ...init,
        credentials: 'same-origin',
        headers: { accept: 'application/ld+json', ...(init.headers ?? {}) },
      })
      const text = await response.text()
      return { status: response.status, body: text ? JSON.parse(text) : null }
    },
    { path, body },
  )
}

/** An anonymous JSON-LD read (no cookie). */
const anonymous = async (path: string) => {
  const response = await fetch(`${site.base}${path}`, { headers: { accept: 'application/ld+json' } })
  return { status: response.status, body: response.status === 200 ? ((await response.json()) as any) : null }
}

const labelsIn = (group: ReturnType<Page['getByTestId']>) => group.getByTestId('component-link').allTextContents()

describe('the page builder', () => {
  it('builds a page from a layout with two components, reorders them by dragging, publishes, and the API serves the published page in the new order', async () => {
    // A new page on the demo's layout, through Payload's own create form.
    await page.goto(`${site.base}/admin/collections/pages/create`)
    // Before the record exists the builder says how to get there, naming the button the form shows (it once said
    // "then Create" beside a button labelled Save).
    const saveLabel = (await page.locator('#action-save').textContent())?.trim()
    expect(saveLabel).toBeTruthy()
    await expect(page.getByTestId('page-builder').textContent()).resolves.toContain(`then ${saveLabel}.`)
    // The reference comes from the title as it is typed (the editor may still write another).
    await page.locator('#field-title').fill('Builder demo')
    await page.waitForFunction(
      () => (document.querySelector('#field-reference') as HTMLInputElement | null)?.value === 'builder-demo',
    )
    await page.locator('#field-layout .rs__control').click()
    await page.locator('.rs__option', { hasText: 'primary' }).click()
    await page.locator('#action-save').click()
    await page.waitForURL((url) => /\/admin\/collections\/pages\/[0-9a-f-]{36}$/.test(url.pathname))
    const pageId = new URL(page.url()).pathname.split('/').pop()!

    // The builder leads with the page; the layout's groups come after it, folded (shared by every page on it),
    // with their components by title and type once opened.
    const builder = page.getByTestId('page-builder')
    await builder.getByTestId('owner-page').waitFor()
    const sections = await builder
      .locator('[data-testid^=owner-]')
      .evaluateAll((els) =>
        els.map(
          (el) =>
            `${el.getAttribute('data-testid')}${el.tagName === 'DETAILS' ? (el.hasAttribute('open') ? ' open' : ' folded') : ''}`,
        ),
      )
    expect(sections).toEqual(['owner-page', 'owner-layout folded'])
    await builder.getByTestId('owner-layout').locator('summary').click()
    const header = builder.getByTestId('owner-layout').getByTestId('group-header')
    await header.getByTestId('component-link').first().waitFor()
    expect(await labelsIn(header)).toEqual(['Home', 'Blog', 'Contact'])
    await expect(header.getByTestId('position').first().textContent()).resolves.toContain('Navigation link')

    // A group on the page, and two links added through Payload's create drawer.
    await builder.getByLabel('New group location').fill('main')
    await builder.getByRole('button', { name: 'Add group' }).click()
    const main = builder.getByTestId('group-main')
    await main.waitFor()
    // The explicit-allow-only FileDownload is not offered in a group that does not name it.
    const adder = main.getByRole('group', { name: 'Add a block' })
    const offered = (await adder.getByRole('button').allTextContents()).map((t) => t.trim())
    expect(offered).toEqual(expect.arrayContaining(['Navigation link', 'Heading']))
    expect(offered).not.toContain('File download')
    for (const [label, rawPath] of [
      ['First link', '/first'],
      ['Second link', '/second'],
    ] as const) {
      // Every field of the type: Payload's create drawer, from the builder's add form.
      await adder.getByRole('button', { name: 'Navigation link', exact: true }).click()
      await main.getByTestId('add-block-form').getByRole('button', { name: 'All fields…' }).click()
      const drawer = page.locator('.drawer--is-open').last()
      await drawer.locator('#field-label').fill(label)
      await drawer.locator('#field-rawPath').fill(rawPath)
      await drawer.locator('#action-save').click()
      await main.getByTestId('component-link').filter({ hasText: label }).waitFor()
      // The form stays open for another block until cancelled.
      await main.getByTestId('add-block-form').getByRole('button', { name: 'Cancel' }).click()
    }
    expect(await labelsIn(main)).toEqual(['First link', 'Second link'])

    // Drag the second onto the first: the builder shows, and reloads, the new order.
    await main.getByTestId('position').nth(1).dragTo(main.getByTestId('position').nth(0))
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=group-main] [data-testid=component-link]')]
          .map((a) => a.textContent)
          .join('|') === 'Second link|First link',
    )
    await page.waitForFunction(
      () => document.querySelector('[data-testid=page-builder]')?.getAttribute('aria-busy') === 'false',
    )
    await page.reload()
    await main.getByTestId('component-link').first().waitFor()
    expect(await labelsIn(main)).toEqual(['Second link', 'First link'])
    await screenshot(page, 'admin-page-builder')

    // The stored order, and the two links still drafts nobody anonymous can read.
    const view = await api(`/_api/_/page_builder?iri=${encodeURIComponent(`/_api/_/pages/${pageId}`)}`)
    expect(view.status).toBe(200)
    const group = view.body.page.groups[0]
    const links: string[] = group.positions.map((p: { component: { '@id': string } }) => p.component['@id'])
    expect(group.positions.map((p: { sortValue: number }) => p.sortValue)).toEqual([0, 1])
    for (const link of links) expect((await anonymous(link)).status).toBe(404)

    // Publish in the admin: from the page builder to each component ("jump to the component"), then "Publish now".
    for (const iri of links) {
      await page.goto(`${site.base}/admin/collections/pages/${pageId}`)
      await main.locator(`[data-testid=component-link][href$="/${iri.split('/').pop()}"]`).click()
      await page.waitForURL((url) => url.pathname.endsWith(`/${iri.split('/').pop()}`), { timeout: 30_000 })
      await page.locator('.cwa-publish-now').click()
      await waitFor(async () => (await anonymous(iri)).status === 200, {
        timeout: 30_000,
        message: `${iri} to be published`,
      })
      // The panel then reloads the view: a navigation started before that one settles would be aborted.
      await waitFor(
        async () =>
          (await page
            .locator('.cwa-publication-badge')
            .getAttribute('data-publication', { timeout: 1_000 })
            .catch(() => null)) === 'live',
        {
          timeout: 30_000,
          message: 'the live badge after the reload',
        },
      )
      await page.waitForLoadState('load')
    }
    // Back on the page (the next test calls the API from a settled page).
    await page.goto(`${site.base}/admin/collections/pages/${pageId}`)
    await main.getByTestId('component-link').first().waitFor()

    // Anonymous: the group lists its positions in the new order, each showing a published link.
    const served = await anonymous(group['@id'])
    expect(served.status).toBe(200)
    const labels = []
    for (const positionIri of served.body.componentPositions) {
      const position = await anonymous(positionIri)
      const component = await anonymous(position.body.component)
      expect(component.status).toBe(200)
      expect(component.body._metadata.publishable.published).toBe(true)
      labels.push(component.body.label)
    }
    expect(labels).toEqual(['Second link', 'First link'])
    expect(browser.offsite).toEqual([])
  }, 240_000) // many clicks and saves in one browser session: minutes on a loaded CI machine

  it('shows page data with its template page, a dynamic position naming the property it resolves to', async () => {
    const articles = await api('/_api/page_data/blog_article_datas')
    const first = (articles.body.member ?? articles.body['hydra:member']).find(
      (a: { title: string }) => a.title === 'First article',
    )
    await page.goto(`${site.base}/admin/collections/blog_article_datas/${first['@id'].split('/').pop()}`)
    const builder = page.getByTestId('page-builder')
    const dynamic = builder.getByTestId('owner-page').getByTestId('position').first()
    await dynamic.getByTestId('component-link').waitFor()
    const text = await dynamic.textContent()
    // The binding in words (the type and the property as the admin names them), its code name in a tooltip.
    expect(text).not.toContain('BlogArticleData.htmlContent')
    expect(text).toContain('Blog article: Text from each record')
    await expect(dynamic.locator('[title="BlogArticleData.htmlContent"]').count()).resolves.toBe(1)
    expect(text).toContain('The first article of the demo blog.')
    await screenshot(page, 'admin-page-builder-page-data')
    expect(browser.offsite).toEqual([])
  })
})

describe('the route tree', () => {
  it('shows routes by path, each linking to its page or page data', async () => {
    // The admin's navigation links to the view.
    await page.goto(`${site.base}/admin`)
    await expect(
      page.getByTestId('cwa-nav').getByRole('link', { name: 'Route tree' }).getAttribute('href'),
    ).resolves.toBe('/admin/cwa/routes')
    await page.goto(`${site.base}/admin/cwa/routes`)
    const tree = page.getByTestId('route-tree')
    await tree.waitFor()
    // /blog/first-article sits under /blog, under /.
    const blog = tree.locator('li', {
      has: page.locator('> div > [data-testid=route-path] code', { hasText: /^\/blog$/ }),
    })
    await expect(blog.locator('li [data-testid=route-path] code').allTextContents()).resolves.toEqual([
      '/blog/first-article',
      '/blog/second-article',
    ])
    // Targets by their titles (a page's may carry its reference: "Contact (contact)").
    await expect(tree.getByRole('link', { name: /^Contact( \(contact\))?$/ }).getAttribute('href')).resolves.toMatch(
      /^\/admin\/collections\/pages\/[0-9a-f-]{36}$/,
    )
    await expect(
      tree
        .getByRole('link', { name: /^First article/ })
        .first()
        .getAttribute('href'),
    ).resolves.toMatch(/^\/admin\/collections\/blog_article_datas\/[0-9a-f-]{36}$/)
    await screenshot(page, 'admin-route-tree')
    expect(browser.offsite).toEqual([])
  })
})

describe('orphans in the admin', () => {
  it("scans, lists an orphan and deletes it; the alert e-mail's /_cwa/orphaned lands here", async () => {
    const created = await api('/_api/component/titles', { title: 'Left alone' })
    expect(created.status).toBe(201)
    const orphan: string = created.body['@id']
    // The orphan alert's default button path, on this site, opens the admin's view.
    await page.goto(`${site.base}/_cwa/orphaned`)
    await page.waitForURL((url) => url.pathname === '/admin/cwa/orphaned')
    const panel = page.getByTestId('orphans')
    await panel.getByRole('button', { name: 'Scan now' }).click()
    const row = panel.locator(`[data-testid=orphan-row][data-iri="${orphan}"]`)
    await row.waitFor()
    await screenshot(page, 'admin-orphans')
    await row.locator('input[type=checkbox]').check({ force: true })
    await panel.getByRole('button', { name: /Delete selected \(1\)/ }).click()
    await panel.getByRole('status').filter({ hasText: 'Deleted 1 record.' }).waitFor()
    await row.waitFor({ state: 'detached' })
    expect((await api(orphan)).status).toBe(404)
    expect(browser.offsite).toEqual([])
  })
})

describe('uploads in the admin', () => {
  it('shows an image with its variants, and resizes an image over 2560 px in the browser before upload', async () => {
    const created = await api('/_api/component/images', {})
    expect(created.status).toBe(201)
    const id = created.body['@id'].split('/').pop()
    await page.goto(`${site.base}/admin/collections/images/${id}`)
    const panel = page.getByTestId('upload-file')
    await panel.getByText('No file yet.').waitFor()
    const big = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: { r: 30, g: 90, b: 200 } },
    })
      .jpeg()
      .toBuffer()
    await panel.getByLabel('Upload file').setInputFiles({ name: 'wide.jpg', mimeType: 'image/jpeg', buffer: big })
    await panel
      .getByRole('status')
      .filter({ hasText: 'resized in the browser from 3000 × 2000 to 2560 × 1706 px' })
      .waitFor({ timeout: 60_000 })
    await panel.getByTestId('media-object').nth(1).waitFor()
    const captions = await panel.locator('figcaption').allTextContents()
    expect(captions[0]).toContain('original · image/jpeg · 2560 × 1706')
    expect(captions[1]).toContain('thumbnail')
    // What the API stored is the resized file.
    const stored = await api(created.body['@id'])
    expect(stored.body._metadata.mediaObjects.file[0]).toMatchObject({ width: 2560, height: 1706 })
    await screenshot(page, 'admin-image-upload')
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
  })

  it('on a new image, choosing a file saves the record with it in one step, alt text typed before included', async () => {
    await page.goto(`${site.base}/admin/collections/images/create`)
    const panel = page.getByTestId('upload-file')
    await panel.getByText('No file yet: choosing one saves this record with it.').waitFor()
    await page.locator('#field-alt').fill('A blue square')
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .png()
      .toBuffer()
    await panel.getByLabel('Upload file').setInputFiles({ name: 'blue-square.png', mimeType: 'image/png', buffer: png })
    // Payload's first save opens the new record; its panel shows the stored file and its variant.
    await page.waitForURL((url) => /\/admin\/collections\/images\/[0-9a-f-]{36}$/.test(url.pathname))
    const id = new URL(page.url()).pathname.split('/').pop()!
    await page.getByTestId('upload-file').getByTestId('media-object').nth(1).waitFor()
    const stored = await api(`/_api/component/images/${id}`)
    expect(stored.status).toBe(200)
    expect(stored.body.alt).toBe('A blue square')
    expect(stored.body.filename).toMatch(/^blue-square-[0-9a-f]{12}\.png$/)
    expect(stored.body._metadata.mediaObjects.file[0]).toMatchObject({ width: 40, height: 40, mimeType: 'image/png' })
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
  })
})

/**
 * Issue 23, what an editor sees (Debian chromium, every request off loopback
 * blocked and failing the test): forms that lead with content (technical
 * fields in a collapsed "Advanced" section), the dashboard grouped as editors
 * think with its start panel, a new page that gets its groups from its
 * layout, the orphan report by title, type and age, the route tree with
 * titles and states, the Route field after "Generate route", and "View on
 * site" towards the configured front end (frontEndUrl), with Live Preview.
 * Screenshots: test-results/admin-dashboard.png, admin-block-editor.png,
 * admin-orphan-report.png, admin-route-tree-states.png (docs/screenshots
 * keeps the first two).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { openBrowser, screenshot, signIn, startAdminSite, type AdminSite, type TestBrowser } from '../support/browser'
import { waitFor } from '../support/wait'

/** The front end the admin links to: on loopback (never loaded by these tests, but allowed if it were). */
const FRONT_END = 'http://127.0.0.1:3999'

let site: AdminSite
let browser: TestBrowser
let page: Page

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cwa-editor-'))
  const options = path.join(dir, 'options.json')
  writeFileSync(options, JSON.stringify({ frontEndUrl: `${FRONT_END}/` }))
  site = await startAdminSite({ CWA_CONFIG_FILE: options })
  browser = await openBrowser()
  page = await browser.newPage()
  // A loaded 2-core machine (parallel builds and browsers) renders an admin view in tens of seconds.
  page.setDefaultTimeout(90_000)
  await signIn(page, site.base, await site.superAdmin())
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

/** A call from the signed-in browser (its session cookies, its origin): the JSON-LD API or Payload's REST. */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const json = path.startsWith('/api/') ? 'application/json' : 'application/ld+json'
      const response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { accept: json, ...(body === undefined ? {} : { 'content-type': json }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, body: text ? JSON.parse(text) : null }
    },
    { method, path, body },
  )
}

describe('the dashboard', () => {
  it('groups the navigation as editors think, keeps groups and positions out of it, and starts with recent pages, drafts and scheduled publications', async () => {
    // A draft and a scheduled publication for the start panel.
    const draft = await call('POST', '/_api/component/html_contents', { html: '<p>A draft nobody published yet</p>' })
    expect(draft.status).toBe(201)
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString()
    const scheduled = await call('POST', '/_api/component/navigation_links', {
      label: 'Coming soon',
      rawPath: '/soon',
      publishedAt: due,
    })
    expect(scheduled.status).toBe(201)

    await page.goto(`${site.base}/admin`)
    const panel = page.getByTestId('start-panel')
    await panel.waitFor()
    const nav = page.locator('nav')
    const groups = await nav.locator('.nav-group__label, .nav-group__toggle').allTextContents()
    // In the order an editor looks for them: content first, the account last.
    const order = ['Pages and content', 'Site structure', 'Media', 'Settings', 'Users', 'Site tools']
    const at = order.map((group) => groups.findIndex((text) => text.includes(group)))
    expect(at.every((index) => index >= 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
    // Types by their names in words; groups and positions reached through the page builder only.
    await expect(nav.locator('#nav-html_contents').textContent()).resolves.toBe('Rich text')
    await expect(nav.locator('#nav-navigation_links').textContent()).resolves.toBe('Navigation links')
    expect(await nav.locator('#nav-component_groups, #nav-component_positions').count()).toBe(0)
    await expect(
      page.getByTestId('cwa-nav').getByRole('link', { name: 'Route tree' }).getAttribute('href'),
    ).resolves.toBe('/admin/cwa/routes')

    // The start panel: pages edited last, the draft, the scheduled link, each linking to its edit view.
    const recent = await panel.getByTestId('start-recent-pages').getByRole('link').allTextContents()
    expect(recent).toEqual(expect.arrayContaining(['Home (home)', 'Contact (contact)']))
    const drafts = panel.getByTestId('start-drafts')
    await expect(drafts.getByRole('link', { name: 'A draft nobody published yet' }).getAttribute('href')).resolves.toBe(
      `/admin/collections/html_contents/${draft.body['@id'].split('/').pop()}`,
    )
    await expect(
      drafts.getByTestId('start-item').filter({ hasText: 'A draft nobody published yet' }).textContent(),
    ).resolves.toContain('Rich text')
    // Each type name with its icon.
    await expect(
      drafts
        .getByTestId('start-item')
        .filter({ hasText: 'A draft nobody published yet' })
        .getByTestId('type-icon')
        .getAttribute('data-icon'),
    ).resolves.toBe('text')
    const soon = panel.getByTestId('start-scheduled').getByTestId('start-item').filter({ hasText: 'Coming soon' })
    await expect(soon.textContent()).resolves.toMatch(/Navigation link.*goes live in 3 days/)
    await expect(soon.getByTestId('type-icon').getAttribute('data-icon')).resolves.toBe('link')
    await screenshot(page, 'admin-dashboard')
    expect(browser.offsite).toEqual([])
  }, 300_000)
})

describe('a block editor', () => {
  it('leads with the content; the front-end component, classes and lists wait, collapsed, under Advanced', async () => {
    const links = await call('GET', '/api/navigation_links?limit=1&depth=0&where[label][equals]=Home')
    await page.goto(`${site.base}/admin/collections/navigation_links/${links.body.docs[0].id}`)
    const label = page.locator('#field-label')
    await label.waitFor()
    // The first field of the main column is the link's own label, not uiComponent.
    const main = page.locator('.document-fields__main .render-fields').first()
    const first = main.locator('> .field-type, > .collapsible-field, > [class*=field-type]').first()
    await expect(first.getAttribute('class')).resolves.not.toContain('collapsible')
    expect(await first.locator('#field-label').count()).toBe(1)
    // Advanced is there, collapsed: its fields are not shown until it is opened.
    const advanced = page.locator('.collapsible-field', { hasText: 'Advanced' })
    await advanced.waitFor()
    await expect(page.locator('#field-uiComponent').isVisible()).resolves.toBe(false)
    await screenshot(page, 'admin-block-editor')
    await advanced.locator('.collapsible__toggle, button').first().click()
    await page.locator('#field-uiComponent').waitFor({ state: 'visible' })
    await expect(page.getByText('Front-end component').first().isVisible()).resolves.toBe(true)
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
  }, 300_000)
})

describe('a new page', () => {
  it('created in the admin from a layout gets the groups pages on that layout have, without a location typed', async () => {
    await page.goto(`${site.base}/admin/collections/pages/create`)
    await page.locator('#field-title').fill('Our services')
    await page.locator('#field-reference').fill('services')
    await page.locator('#field-layout .rs__control').click()
    await page.locator('.rs__option', { hasText: 'primary' }).click()
    await page.locator('#action-save').click()
    await page.waitForURL((url) => /\/admin\/collections\/pages\/[0-9a-f-]{36}$/.test(url.pathname))
    const id = new URL(page.url()).pathname.split('/').pop()!
    const stored = await call('GET', `/api/pages/${id}?depth=0`)
    const group = (await call('GET', '/api/component_groups?depth=0&where[reference][equals]=services_main')).body
      .docs[0]
    expect(group).toMatchObject({ location: 'main' })
    expect(stored.body.componentGroups).toEqual([group.id])
    // The JSON-LD API (the contract's clients make their own groups) is unchanged: no group added.
    const layout = (await call('GET', '/api/layouts?limit=1&depth=0')).body.docs[0].id
    const viaApi = await call('POST', '/_api/_/pages', {
      reference: 'api-page',
      title: 'API page',
      layout: `/_api/_/layouts/${layout}`,
      isTemplate: false,
    })
    expect(viaApi.status).toBe(201)
    expect(viaApi.body.componentGroups).toEqual([])
    expect(browser.offsite).toEqual([])
  }, 300_000)
})

describe('the orphan report', () => {
  it('lists each orphan by title, type and age, linking to it', async () => {
    const created = await call('POST', '/_api/component/titles', { title: 'Left alone' })
    expect(created.status).toBe(201)
    const id = created.body['@id'].split('/').pop()
    await page.goto(`${site.base}/admin/cwa/orphaned`)
    const panel = page.getByTestId('orphans')
    await panel.getByRole('button', { name: 'Scan now' }).click()
    const row = panel.getByTestId('orphan-row').filter({ hasText: 'Left alone' })
    await row.waitFor()
    await expect(
      row.getByTestId('orphan-title').getByRole('link', { name: 'Left alone' }).getAttribute('href'),
    ).resolves.toBe(`/admin/collections/titles/${id}`)
    await expect(row.getByTestId('orphan-type').textContent()).resolves.toBe('Heading')
    await expect(row.getByTestId('orphan-type').getByTestId('type-icon').getAttribute('data-icon')).resolves.toBe(
      'heading',
    )
    await expect(row.getByTestId('orphan-age').textContent()).resolves.toMatch(/^(this minute|\d+ minutes? ago)$/)
    await expect(panel.getByTestId('orphans-summary').textContent()).resolves.toMatch(
      /^Report of .+ \((this minute|\d+ minutes? ago)\)/,
    )
    await screenshot(page, 'admin-orphan-report')
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
  }, 300_000)
})

describe('the route tree', () => {
  it('shows what each route shows, by title and type, and its state', async () => {
    const blog = (await call('GET', '/api/pages?where[reference][equals]=blog&depth=0')).body.docs[0]
    const page2 = await call('POST', '/api/pages', { reference: 'later', title: 'Later page', layout: blog.layout })
    const later = await call('POST', '/api/routes', {
      path: '/later',
      page: page2.body.doc.id,
      liveAt: new Date(Date.now() + 86_400_000).toISOString(),
    })
    expect(later.status).toBe(201)
    // The routes list (Site structure) leads to the tree.
    await page.goto(`${site.base}/admin/collections/routes`)
    await page.getByTestId('route-tree-link').getByRole('link').click()
    await page.waitForURL((url) => url.pathname === '/admin/cwa/routes')
    const tree = page.getByTestId('route-tree')
    await tree.waitFor()
    const node = (path: string) =>
      tree
        .getByTestId('route-node')
        .filter({ has: page.locator('> div > a code', { hasText: new RegExp(`^${path}$`) }) })
    await expect(node('/blog').locator('> div [data-testid=route-state]').textContent()).resolves.toBe('Live')
    await expect(node('/blog').locator('> div [data-testid=route-target]').textContent()).resolves.toMatch(
      /→ Blog \(blog\) Page/,
    )
    await expect(
      node('/blog/first-article').locator('> div [data-testid=route-target]').textContent(),
    ).resolves.toMatch(/First article Blog article/)
    await expect(
      node('/blog').locator('> div [data-testid=route-target] [data-testid=type-icon]').getAttribute('data-icon'),
    ).resolves.toBe('page')
    await expect(node('/later').locator('> div [data-testid=route-state]').textContent()).resolves.toMatch(
      /^Scheduled · /,
    )
    await expect(
      node('/later')
        .locator('> div [data-testid=route-target]')
        .getByRole('link', { name: 'Later page (later)' })
        .getAttribute('href'),
    ).resolves.toBe(`/admin/collections/pages/${page2.body.doc.id}`)
    // A live route links to the front end; a scheduled one does not yet.
    await expect(node('/blog').locator('> div [data-testid=route-on-site]').getAttribute('href')).resolves.toBe(
      `${FRONT_END}/blog`,
    )
    expect(await node('/later').locator('> div [data-testid=route-on-site]').count()).toBe(0)
    await screenshot(page, 'admin-route-tree-states')
    expect(browser.offsite).toEqual([])
  }, 300_000)
})

describe('a renamed route (issue 41)', () => {
  it('leaves its old path as a redirect: renamed in its edit view, seen in the route tree and the routes list', async () => {
    const contact = (await call('GET', '/api/routes?where[path][equals]=/contact&depth=0')).body.docs[0]
    await page.goto(`${site.base}/admin/collections/routes/${contact.id}`)
    await page.locator('#field-path').fill('/contact-us')
    await page.locator('#action-save').click()
    await waitFor(
      async () => (await call('GET', '/api/routes?where[path][equals]=/contact-us&depth=0')).body.docs.length === 1,
      { timeout: 30_000, message: 'the route saved at /contact-us' },
    )
    const redirect = (await call('GET', '/api/routes?where[path][equals]=/contact&depth=0')).body.docs[0]
    expect(redirect).toMatchObject({ path: '/contact', redirect: contact.id, page: null })
    await page.goto(`${site.base}/admin/cwa/routes`)
    const tree = page.getByTestId('route-tree')
    await tree.waitFor()
    const node = (path: string) =>
      tree
        .getByTestId('route-node')
        .filter({ has: page.locator('> div > a code', { hasText: new RegExp(`^${path}$`) }) })
    await expect(node('/contact').locator('> div [data-testid=route-state]').textContent()).resolves.toBe('Redirect')
    await expect(node('/contact').locator('> div').first().textContent()).resolves.toContain('redirects to /contact-us')
    await expect(node('/contact-us').locator('> div [data-testid=route-state]').textContent()).resolves.toBe('Live')
    // The routes list (Site structure › Routes) has a row for the old path.
    await page.goto(`${site.base}/admin/collections/routes`)
    await page.locator(`a[href$="/admin/collections/routes/${redirect.id}"]`).first().waitFor()
    expect(browser.pageErrors).toEqual([])
  }, 300_000)
})

describe('routes and the front end', () => {
  it('"Generate route" refreshes the page\'s Route field, and "View on site" leads to the front end at the route, with Live Preview', async () => {
    const layout = (await call('GET', '/api/layouts?limit=1&depth=0')).body.docs[0].id
    const created = await call('POST', '/api/pages', { reference: 'team-page', title: 'Meet the team', layout })
    expect(created.status).toBe(201)
    const id = created.body.doc.id
    await page.goto(`${site.base}/admin/collections/pages/${id}`)
    await page.getByTestId('view-on-site').getByText('Not on the site yet: it has no route.').waitFor()
    await page.locator('.cwa-generate-route-button').click()
    await page.locator('.cwa-generated-path').getByText('/meet-the-team').waitFor({ timeout: 30_000 })
    // The Route field (a join Payload reads once per load) shows the new route without the editor reloading.
    await waitFor(
      async () =>
        (
          (await page
            .locator('#field-route, .field-type.join')
            .first()
            .textContent()
            .catch(() => '')) ?? ''
        ).includes('/meet-the-team'),
      {
        timeout: 30_000,
        message: 'the Route field to show /meet-the-team',
      },
    )
    await expect(page.getByTestId('view-on-site').getByRole('link').getAttribute('href')).resolves.toBe(
      `${FRONT_END}/meet-the-team`,
    )
    // Payload's Live Preview is offered, pointed at the same URL (the iframe is not opened: nothing listens there).
    await expect(
      page.locator('.live-preview-toggler, [id*=live-preview], button[aria-label*="Live Preview" i]').count(),
    ).resolves.toBeGreaterThan(0)

    // A route's own edit view links to its path.
    const route = (await call('GET', '/api/routes?where[path][equals]=/meet-the-team&depth=0')).body.docs[0]
    await page.goto(`${site.base}/admin/collections/routes/${route.id}`)
    await expect(page.getByTestId('view-on-site').getByRole('link').getAttribute('href')).resolves.toBe(
      `${FRONT_END}/meet-the-team`,
    )
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
  }, 300_000)
})

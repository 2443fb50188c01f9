/**
 * The admin panel as an editor meets it, in a real browser with the network
 * limited to loopback (test/support/browser.ts): the first-user form shows
 * only what is saved; the login page offers no dead "forgot password" link;
 * lists, pickers and search name records by title; HtmlContent is edited
 * with Lexical and the JSON-LD API serves the HTML typed; a ROLE_USER is
 * refused with a clear message; and no screen asks the internet for
 * anything (no CDN editor, no third-party avatar): every collection's list,
 * create and edit view and every global is opened. Screenshots go to
 * test-results/.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  openBrowser,
  screenshot,
  startAdminSite,
  submitLogin,
  type AdminSite,
  type Credentials,
  type TestBrowser,
} from '../support/browser'
import { PASSWORD } from '../support/server'
import { waitFor } from '../support/wait'

let site: AdminSite
let browser: TestBrowser
const owner: Credentials = { username: 'first_owner', password: PASSWORD }

/** A JSON-LD session (the contract's cookies) for reading what the admin saved. */
async function apiCookies({ username, password }: Credentials): Promise<string> {
  const response = await fetch(`${site.base}/_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  expect(response.status).toBeLessThan(300)
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

async function payloadToken({ username, password }: Credentials): Promise<string> {
  const response = await fetch(`${site.base}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { token: string }).token
}

const signInThroughForm = (page: import('playwright-core').Page, credentials: Credentials) =>
  submitLogin(page, site.base, credentials)

beforeAll(async () => {
  site = await startAdminSite()
  browser = await openBrowser()
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

describe('the admin panel, readable and offline', () => {
  it('the first-user form shows no roles or enabled box, and its account is saved as an enabled super admin', async () => {
    const page = await browser.newPage()
    await page.goto(`${site.base}/admin`)
    await page.waitForURL(/\/admin\/create-first-user/, { timeout: 60_000 })
    await page.locator('input[name="username"]').waitFor()
    expect(await page.locator('#field-roles').count()).toBe(0)
    expect(await page.locator('input[name="enabled"], #field-enabled').count()).toBe(0)
    await screenshot(page, 'admin-first-user')
    await page.locator('input[name="username"]').fill(owner.username)
    await page.locator('input[name="email"]').fill('first-owner@example.com')
    await page.locator('input[name="password"]').fill(owner.password)
    await page.locator('input[name="confirm-password"]').fill(owner.password)
    await page.locator('button[type="submit"]').click()
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 60_000 })
    const me = await (await fetch(`${site.base}/_api/me`, { headers: { cookie: await apiCookies(owner) } })).json()
    expect(me.roles).toContain('ROLE_SUPER_ADMIN')
    expect(me.enabled ?? true).toBe(true)
    expect(browser.offsite).toEqual([])
    await page.close()
  }, 180_000)

  it('the login page offers no dead "forgot password" link', async () => {
    const context = await browser.browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    await page.route('**/*', (route) =>
      new URL(route.request().url()).hostname === '127.0.0.1'
        ? route.continue()
        : (browser.offsite.push(route.request().url()), route.abort()),
    )
    await page.goto(`${site.base}/admin/login`)
    await page.locator('input[name="password"]').waitFor()
    expect(await page.locator('a[href$="/forgot"]').isVisible()).toBe(false)
    await screenshot(page, 'admin-login')
    await context.close()
    expect(browser.offsite).toEqual([])
  }, 60_000)

  it('the dashboard, lists and edit views name records by title and labels in words, all from loopback', async () => {
    const page = await browser.newPage()
    await page.goto(`${site.base}/admin`)
    await page.getByText('Navigation links').first().waitFor()
    await expect(page.getByText('Navigation_links').count()).resolves.toBe(0)
    await screenshot(page, 'admin-dashboard-labels')

    await page.goto(`${site.base}/admin/collections/html_contents`)
    await page.getByText('This site is served by payload-cwa.').first().waitFor()
    await screenshot(page, 'admin-list-html-contents')

    await page.goto(`${site.base}/admin/collections/component_positions`)
    await page
      .getByText(/primary_top › Home/)
      .first()
      .waitFor()
    await screenshot(page, 'admin-list-positions')

    // The list search looks in titles.
    await page.goto(`${site.base}/admin/collections/html_contents?search=${encodeURIComponent('second article')}`)
    await page.getByText('The second article of the demo blog.').first().waitFor()
    expect(await page.getByText('This site is served by payload-cwa.').count()).toBe(0)

    // A position's edit view: breadcrumb and relation picker by name.
    const positions = await (
      await fetch(
        `${site.base}/api/component_positions?depth=0&limit=50&where[adminTitle][like]=${encodeURIComponent('primary_bottom')}`,
        { headers: { authorization: `JWT ${await payloadToken(owner)}` } },
      )
    ).json()
    await page.goto(`${site.base}/admin/collections/component_positions/${positions.docs[0].id}`)
    await page.getByText('© payload-cwa demo').first().waitFor()
    await screenshot(page, 'admin-edit-position')
    // A position that holds something says nothing; one that holds nothing (an orphan) is flagged while it is empty.
    expect(await page.locator('[data-cwa-empty-position]').count()).toBe(0)
    const token = await payloadToken(owner)
    const empty = await fetch(`${site.base}/api/component_positions?depth=0`, {
      method: 'POST',
      headers: { authorization: `JWT ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ componentGroup: positions.docs[0].componentGroup }),
    })
    expect(empty.status).toBe(201)
    await page.goto(
      `${site.base}/admin/collections/component_positions/${((await empty.json()) as { doc: { id: string } }).doc.id}`,
    )
    await page.locator('[data-cwa-empty-position]').getByText('This position is empty.').waitFor()
    await screenshot(page, 'admin-empty-position')

    for (const path of [
      '/admin/collections/pages',
      '/admin/collections/titles',
      '/admin/collections/component_groups',
      '/admin/collections/users',
      '/admin/account',
    ]) {
      await page.goto(`${site.base}${path}`)
      await page.waitForLoadState('networkidle')
    }
    // Roles in words in the users list (stored and served by the API as ROLE_* names).
    await page.goto(`${site.base}/admin/collections/users`)
    await page.getByText('Super admin').first().waitFor()
    expect(await page.getByText('ROLE_SUPER_ADMIN').count()).toBe(0)
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
    await page.close()
  }, 240_000)

  it('HtmlContent is edited with the rich-text editor (no CDN), and the JSON-LD API serves the HTML typed', async () => {
    // A draft (never published): the save updates it in place. (A live record's save goes to a new draft twin: see the report of issue 16a.)
    const created = await fetch(`${site.base}/api/html_contents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${await payloadToken(owner)}` },
      body: JSON.stringify({ html: '<p>The first article of the demo blog.</p>' }),
    })
    expect(created.status).toBe(201)
    const target = ((await created.json()) as { doc: { id: string } }).doc
    const page = await browser.newPage()
    await page.goto(`${site.base}/admin/collections/html_contents/${target.id}`)
    const editor = page.locator('[data-lexical-editor="true"]').first()
    await editor.waitFor()
    await expect(editor.innerText()).resolves.toContain('The first article of the demo blog.')
    // Its toolbar is always there, above the text (not only over a selection).
    await page.locator('.fixed-toolbar').first().waitFor()
    await editor.click()
    await page.keyboard.press('End')
    await page.keyboard.type(' Typed in the browser.')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Control+b')
    await page.keyboard.type('Bold words')
    await screenshot(page, 'admin-edit-rich-text')
    await page.locator('#action-save').click()

    const cookie = await apiCookies(owner)
    let read: { html?: string } = {}
    await waitFor(
      async () => {
        read = await (
          await fetch(`${site.base}/_api/component/html_contents/${target.id}`, { headers: { cookie } })
        ).json()
        return read.html?.includes('Typed in the browser.')
      },
      { timeout: 30_000, message: () => `the typed text in the JSON-LD html: ${read.html}` },
    )
    expect(read.html).toContain('The first article of the demo blog. Typed in the browser.')
    expect(read.html).toMatch(/<p>(<strong>|<b>)Bold words(<\/strong>|<\/b>)<\/p>/)
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
    await page.close()
  }, 180_000)

  it('a component group’s allowed block types are ticked by name (no CDN JSON editor), and the API holds the IRIs', async () => {
    const token = await payloadToken(owner)
    const created = await fetch(`${site.base}/api/component_groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
      body: JSON.stringify({ reference: 'offline-allowed', location: 'main' }),
    })
    expect(created.status).toBe(201)
    const group = ((await created.json()) as { doc: { id: string } }).doc
    const page = await browser.newPage()
    await page.goto(`${site.base}/admin/collections/component_groups/${group.id}`)
    const control = page.locator('fieldset.cwa-allowed-types')
    await control.waitFor()
    expect(await page.getByLabel('Every type of block').isChecked()).toBe(true)
    await page.getByLabel('Only the types ticked below').check()
    const list = control.locator('[data-cwa-allowed-types]')
    await list.getByText('Loading the block types…').waitFor({ state: 'detached' })
    // The site's component types by the admin's names.
    const names = await list.locator('label').allInnerTexts()
    expect(names.map((name) => name.trim())).toEqual(expect.arrayContaining(['Rich text', 'Image', 'Heading']))
    // Nothing ticked yet: none is, until the editor ticks one.
    for (const name of names) expect(await list.getByLabel(name.trim()).isChecked()).toBe(false)
    await list.getByLabel('Rich text').check()
    await screenshot(page, 'admin-allowed-block-types')
    await page.locator('#action-save').click()
    const cookie = await apiCookies(owner)
    let read: { allowedComponents?: unknown } = {}
    await waitFor(
      async () => {
        read = await (await fetch(`${site.base}/_api/_/component_groups/${group.id}`, { headers: { cookie } })).json()
        return Array.isArray(read.allowedComponents) && read.allowedComponents.length === 1
      },
      { timeout: 30_000, message: () => `the ticked type in the group: ${JSON.stringify(read.allowedComponents)}` },
    )
    expect(read.allowedComponents).toEqual(['/_api/component/html_contents'])
    // Every type again: the list goes (null).
    await page.reload()
    await page.getByLabel('Every type of block').check()
    await page.locator('#action-save').click()
    await waitFor(
      async () => {
        read = await (await fetch(`${site.base}/_api/_/component_groups/${group.id}`, { headers: { cookie } })).json()
        return read.allowedComponents === null
      },
      { timeout: 30_000, message: () => `every type again: ${JSON.stringify(read.allowedComponents)}` },
    )
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
    await page.close()
  }, 180_000)

  it('a record list’s default query parameters are rows of a name and a value (no CDN JSON editor)', async () => {
    const token = await payloadToken(owner)
    const created = await fetch(`${site.base}/api/collections`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
      body: JSON.stringify({ resourceIri: '/_api/component/html_contents', publishedAt: '2020-01-01T00:00:00.000Z' }),
    })
    expect(created.status).toBe(201)
    const list = ((await created.json()) as { doc: { id: string } }).doc
    const page = await browser.newPage()
    await page.goto(`${site.base}/admin/collections/collections/${list.id}`)
    const control = page.locator('fieldset.cwa-query-parameters')
    await control.waitFor()
    for (const [index, [name, value]] of [
      ['search', 'first'],
      ['order[title]', 'asc'],
    ].entries()) {
      await control.getByRole('button', { name: 'Add a parameter' }).click()
      await control.getByLabel(`Parameter ${index + 1} name`).fill(name!)
      await control.getByLabel(`Parameter ${index + 1} value`).fill(value!)
    }
    await screenshot(page, 'admin-query-parameters')
    await page.locator('#action-save').click()
    let read: { defaultQueryParameters?: unknown } = {}
    await waitFor(
      async () => {
        const response = await fetch(`${site.base}/api/collections/${list.id}?depth=0`, {
          headers: { authorization: `JWT ${token}` },
        })
        read = await response.json()
        return read.defaultQueryParameters !== null && read.defaultQueryParameters !== undefined
      },
      { timeout: 30_000, message: () => `the parameters saved: ${JSON.stringify(read.defaultQueryParameters)}` },
    )
    expect(read.defaultQueryParameters).toEqual({ search: 'first', order: { title: 'asc' } })
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
    await page.close()
  }, 180_000)

  it("every collection's list, create and edit view (and every global) opens from loopback alone, with no error, and a list's first visible cell opens its record", async () => {
    const page = await browser.newPage()
    await page.goto(`${site.base}/admin`)
    // What the editor can reach: the panel's own navigation (hidden collections are not offered).
    const nav = page.locator('nav a[href*="/admin/collections/"], nav a[href*="/admin/globals/"]')
    await nav.first().waitFor({ state: 'attached' })
    const targets = [...new Set(await nav.evaluateAll((links) => links.map((a) => a.getAttribute('href')!)))]
    const token = await payloadToken(owner)
    const api = async (path: string) =>
      (await fetch(`${site.base}/api${path}`, { headers: { authorization: `JWT ${token}` } })).json() as Promise<any>
    const access = await api('/access')
    const visited: string[] = []
    /** A view opened: no error screen, nothing asked of the internet, no script error (checked once at the end). */
    const open = async (path: string) => {
      const response = await page.goto(`${site.base}${path}`, { waitUntil: 'networkidle' })
      expect({ path, status: response?.status() }).toEqual({ path, status: 200 })
      await expect(page.locator('.not-found, .unauthorized').count()).resolves.toBe(0)
      visited.push(path)
    }
    for (const href of targets) {
      const [, kind, slug] = /\/admin\/(collections|globals)\/([^/?#]+)/.exec(href)!
      await open(href)
      if (kind === 'globals') continue
      if (access.collections?.[slug!]?.create) await open(`${href}/create`)
      if ((await api(`/${slug}?limit=1&depth=0`)).totalDocs === 0) continue
      // Back on the list: the first row's first visible cell (after the selection box) links to its record.
      await open(href)
      const cell = page.locator('.table tbody tr').first().locator('td:not(.cell-_select)').first()
      const link = cell.locator(`a[href*="/admin/collections/${slug}/"]`).first()
      await link.waitFor({ state: 'attached', timeout: 10_000 })
      await open((await link.getAttribute('href'))!)
    }
    console.log(`opened ${visited.length} admin views offline: ${visited.join(', ')}`)
    expect(targets.length).toBeGreaterThan(10)
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
    await page.close()
  }, 300_000)

  it('a ROLE_USER signing in is refused by the panel with a message that says why', async () => {
    const token = await payloadToken(owner)
    const created = await fetch(`${site.base}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
      body: JSON.stringify({
        username: 'just_a_user',
        email: 'just-a-user@example.com',
        password: PASSWORD,
        roles: ['ROLE_USER'],
        enabled: true,
        emailAddressVerified: true,
      }),
    })
    expect(created.status).toBe(201)
    const context = await browser.browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    await page.route('**/*', (route) =>
      new URL(route.request().url()).hostname === '127.0.0.1'
        ? route.continue()
        : (browser.offsite.push(route.request().url()), route.abort()),
    )
    await signInThroughForm(page, { username: 'just_a_user', password: PASSWORD })
    await page
      .getByText(/may not use the admin panel/)
      .first()
      .waitFor({ timeout: 60_000 })
    await screenshot(page, 'admin-refused-role-user')
    expect(await page.getByText('Component groups').count()).toBe(0)
    await context.close()
    expect(browser.offsite).toEqual([])
  }, 120_000)
})

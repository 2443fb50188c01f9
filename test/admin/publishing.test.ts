/**
 * Publishing in the admin panel, in a real browser, offline: an editor edits
 * a live component (the JSON-LD API keeps serving the live version to the
 * public and serves the draft to the editor), presses "Publish now" (the
 * public gets the new version), schedules a draft a few seconds ahead and
 * sees it go live; the badges in the list and edit views; a route's
 * effective go-live date and "Generate route from title". Screenshots under
 * test-results/.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Page } from 'playwright-core'
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
let browser: TestBrowser
let page: Page

const PAST = '2020-01-02T03:04:05.000Z'

/** A same-origin request from the signed-in page (its own session cookie). */
const inPage = (method: string, path: string, body?: unknown) => requestInPage(page, method, path, body)

/** What an anonymous caller gets from the JSON-LD API. */
async function anonymousLabel(id: string): Promise<string | number> {
  const response = await fetch(`${site.base}/_api/component/navigation_links/${id}`, {
    headers: { accept: 'application/ld+json' },
  })
  return response.ok ? ((await response.json()) as { label: string }).label : response.status
}

/** Polls the public label until it reads `until`; every answer with when it was asked and answered. */
async function watchAnonymousLabel(
  id: string,
  until: string,
  timeout = 60_000,
): Promise<Array<{ askedAt: number; answeredAt: number; label: string | number }>> {
  const observations: Array<{ askedAt: number; answeredAt: number; label: string | number }> = []
  const deadline = Date.now() + timeout
  while (Date.now() < deadline) {
    const askedAt = Date.now()
    const label = await anonymousLabel(id)
    observations.push({ askedAt, answeredAt: Date.now(), label })
    if (label === until) return observations
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the public label never read ${until}; last ${JSON.stringify(observations.at(-1))}`)
}

/** `YYYY-MM-DDTHH:mm:ss` in local time: what a datetime-local input holds. */
/** A moment as an editor types it in Payload's date picker: the admin's date format (Payload's default, "MMMM do yyyy, h:mm a"). */
function typedDate(at: Date): string {
  const day = at.getDate()
  const ordinal =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th'
  const hour = at.getHours() % 12 || 12
  const minutes = String(at.getMinutes()).padStart(2, '0')
  return `${at.toLocaleString('en-US', { month: 'long' })} ${day}${ordinal} ${at.getFullYear()}, ${hour}:${minutes} ${at.getHours() < 12 ? 'AM' : 'PM'}`
}

const badge = (scope: Page | ReturnType<Page['locator']>) => scope.locator('.cwa-publication-panel [data-publication]')

async function editLabel(value: string): Promise<void> {
  const label = page.locator('input[name="label"]')
  await label.fill(value)
  await page.locator('#action-save').click()
}

beforeAll(async () => {
  site = await startAdminSite()
  browser = await openBrowser()
  page = await browser.newPage()
  await signIn(page, site.base, await site.superAdmin())
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

describe('publishing in the admin panel', () => {
  let live: string
  let draftOnly: string

  it('lists each record once with its badge: live, draft', async () => {
    const created = await inPage('POST', '/api/navigation_links', { label: 'Home v1', rawPath: '/', publishedAt: PAST })
    expect(created.status).toBe(201)
    live = created.body.doc.id
    draftOnly = (await inPage('POST', '/api/navigation_links', { label: 'Only a draft', rawPath: '/x' })).body.doc.id
    await page.goto(`${site.base}/admin/collections/navigation_links`)
    const rows = page.locator('table tbody tr')
    await rows.first().waitFor()
    await expect(
      page.locator(`tr:has(a[href$="/${live}"]) [data-publication]`).getAttribute('data-publication'),
    ).resolves.toBe('live')
    await expect(
      page.locator(`tr:has(a[href$="/${draftOnly}"]) [data-publication]`).getAttribute('data-publication'),
    ).resolves.toBe('draft')
    await screenshot(page, 'admin-publishing-list')
  }, 120_000)

  it('an edit of a live record makes a draft: the public keeps the live version, the editor gets the draft; the twins stay one row', async () => {
    await page.goto(`${site.base}/admin/collections/navigation_links/${live}`)
    await expect(badge(page).getAttribute('data-publication')).resolves.toBe('live')
    await editLabel('Home v2')
    // The editor goes on in the draft's own view, which leads back to the live version.
    await page.waitForURL((url) => !url.pathname.endsWith(`/${live}`), { timeout: 30_000 })
    await page.locator('.cwa-view-live').waitFor({ timeout: 30_000 })
    expect(await badge(page).getAttribute('data-publication')).toBe('draft')
    expect(await page.locator('input[name="label"]').inputValue()).toBe('Home v2')
    await screenshot(page, 'admin-publishing-draft-of-live')
    await page.locator('.cwa-view-live').click()
    await page.waitForURL((url) => url.pathname.endsWith(`/${live}`), { timeout: 30_000 })
    await waitFor(
      async () =>
        (await badge(page)
          .getAttribute('data-publication')
          .catch(() => null)) === 'live-with-draft',
      { timeout: 30_000, message: 'the pending draft badge' },
    )
    await page.locator('.cwa-edit-draft').waitFor()
    await screenshot(page, 'admin-publishing-pending-draft')
    expect(await anonymousLabel(live)).toBe('Home v1')
    // The same editor on the JSON-LD API (its own session): the draft.
    const login = await fetch(`${site.base}/_api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await site.superAdmin()),
    })
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const asEditor = await fetch(`${site.base}/_api/component/navigation_links/${live}`, {
      headers: { accept: 'application/ld+json', cookie },
    })
    expect(((await asEditor.json()) as { label: string }).label).toBe('Home v2')
    // The draft is reached from the live record, not listed beside it.
    const draftId = (await inPage('GET', `/api/navigation_links/${live}?depth=0`)).body.draftResource.docs[0]
    await page.goto(`${site.base}/admin/collections/navigation_links`)
    await page.locator(`tr:has(a[href$="/${live}"])`).waitFor()
    expect(await page.locator(`tr:has(a[href$="/${draftId}"])`).count()).toBe(0)
    await expect(
      page.locator(`tr:has(a[href$="/${live}"]) [data-publication]`).getAttribute('data-publication'),
    ).resolves.toBe('live-with-draft')
  }, 120_000)

  it('a live record with a pending draft opens the draft; "Publish now" puts it live: the public gets the new version', async () => {
    await page.goto(`${site.base}/admin/collections/navigation_links/${live}`)
    // Edited on the live record's old text, a save would overwrite the draft's pending edits: the draft opens instead.
    await page.waitForURL((url) => !url.pathname.endsWith(`/${live}`), { timeout: 30_000 })
    await page.locator('.cwa-view-live').waitFor({ timeout: 30_000 })
    expect(await badge(page).getAttribute('data-publication')).toBe('draft')
    expect(await page.locator('input[name="label"]').inputValue()).toBe('Home v2')
    await page.locator('.cwa-publish-now').click()
    await waitFor(async () => (await anonymousLabel(live)) === 'Home v2', {
      timeout: 30_000,
      message: 'the published version',
    })
    await waitFor(
      async () =>
        (await badge(page)
          .getAttribute('data-publication')
          .catch(() => null)) === 'live',
      { timeout: 30_000, message: 'the live badge' },
    )
    expect((await inPage('GET', `/api/navigation_links/${live}?depth=0`)).body.draftResource.docs).toEqual([])
  }, 120_000)

  it('"Schedule" with Payload’s date picker, the next minute: the draft goes live at that moment, not before', async () => {
    await page.goto(`${site.base}/admin/collections/navigation_links/${live}`)
    await editLabel('Home v3')
    await page.waitForURL((url) => !url.pathname.endsWith(`/${live}`), { timeout: 30_000 })
    await page.locator('.cwa-view-live').waitFor({ timeout: 30_000 })
    // Payload's date picker holds whole minutes: the next one at least 15 s ahead, typed as the admin shows dates.
    const due = Math.ceil((Date.now() + 15_000) / 60_000) * 60_000
    await page.locator('.cwa-schedule-at input').fill(typedDate(new Date(due)))
    await page.keyboard.press('Escape')
    await page.locator('.cwa-schedule').click()
    // The public is watched from the click on, while the admin catches up, so a slow
    // machine cannot skip the "still the old version" half of the check.
    const seen = watchAnonymousLabel(live, 'Home v3', 120_000)
    // Back on the live record: its pending draft, scheduled.
    await page.waitForURL((url) => url.pathname.endsWith(`/${live}`), { timeout: 30_000 })
    await page.getByText(/draft scheduled/).waitFor({ timeout: 30_000 })
    await screenshot(page, 'admin-publishing-scheduled')
    const observations = await seen
    const beforeDue = observations.filter((o) => o.answeredAt < due)
    expect(beforeDue.length).toBeGreaterThan(0)
    expect(new Set(beforeDue.map((o) => o.label))).toEqual(new Set(['Home v2']))
    const firstNew = observations.find((o) => o.label === 'Home v3')!
    expect(firstNew.answeredAt).toBeGreaterThanOrEqual(due)
  }, 180_000) // up to 75 s waiting for the scheduled minute

  it('a draft-only record: "Publish now" from its edit view; a refusal is shown, not a crash', async () => {
    await page.goto(`${site.base}/admin/collections/navigation_links/${draftOnly}`)
    await expect(badge(page).getAttribute('data-publication')).resolves.toBe('draft')
    // Publishing needs a label: cleared, the state machine refuses and the editor is told why.
    await page.locator('input[name="label"]').fill('')
    await page.locator('.cwa-publish-now').click()
    await page
      .getByText(/refused/i)
      .first()
      .waitFor({ timeout: 30_000 })
    expect(await anonymousLabel(draftOnly)).toBe(404)
    await page.locator('input[name="label"]').fill('Now live')
    await page.locator('.cwa-publish-now').click()
    await waitFor(async () => (await anonymousLabel(draftOnly)) === 'Now live', {
      timeout: 30_000,
      message: 'the published draft',
    })
    await waitFor(
      async () =>
        (await badge(page)
          .getAttribute('data-publication')
          .catch(() => null)) === 'live',
      { timeout: 30_000, message: 'the live badge' },
    )
  }, 120_000)
})

describe('routes in the admin panel', () => {
  it('"Generate route from title" on a page: the route waits, the builder says so, "Publish page" makes the page public; the route shows its effective go-live date', async () => {
    page = await browser.newPage() // the same session, away from the last reload
    await page.goto(`${site.base}/admin`)
    const layout = (await inPage('GET', '/api/layouts?limit=1&depth=0')).body.docs[0].id
    const created = await inPage('POST', '/api/pages', { reference: 'about-us-page', title: 'About our team', layout })
    expect(created.status).toBe(201)
    await page.goto(`${site.base}/admin/collections/pages/${created.body.doc.id}`)
    await page.locator('.cwa-generate-route-button').click()
    await page.locator('.cwa-generated-path').getByText('/about-our-team').waitFor({ timeout: 30_000 })
    const route = (await inPage('GET', `/api/routes?where[path][equals]=/about-our-team&depth=0`)).body.docs[0]
    expect(route).toBeDefined()
    const anonymousStatus = async () =>
      (await fetch(`${site.base}/_api/_/routes//about-our-team`, { headers: { accept: 'application/ld+json' } })).status
    // One publishing moment: nothing of the page is public before "Publish page" (docs/publishing.md).
    expect(await anonymousStatus()).toBe(404)
    const routeState = page.getByTestId('page-route')
    await routeState.getByText('Not public yet: “Publish page” makes it public at /about-our-team').waitFor()
    await expect(page.getByTestId('page-changes').textContent()).resolves.toBe('1 change not published')
    // The page's own description typed and not saved: "Publish page" saves the page's form first.
    await page.locator('textarea[name="metaDescription"]').fill('Who we are')
    await page.getByRole('button', { name: 'Publish page' }).click()
    await page.getByRole('status').getByText('The page is public now at /about-our-team.').waitFor()
    await routeState.getByText('Public at /about-our-team').waitFor()
    expect(await anonymousStatus()).toBe(200)
    expect((await inPage('GET', `/api/pages/${created.body.doc.id}?depth=0`)).body.metaDescription).toBe('Who we are')
    await page.goto(`${site.base}/admin/collections/routes/${route.id}`)
    const note = page.locator('.cwa-route-liveness')
    await note.waitFor()
    expect(await note.getAttribute('data-liveness')).toBe('live')
    await screenshot(page, 'admin-route-liveness')
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
  }, 120_000)
})

/**
 * The admin panel in a real browser: an editor signs in through the login
 * form and reaches the dashboard, and nothing on the way asks the internet
 * for anything (attack/leak guarded: a third-party avatar service receiving
 * a hash of the admin's e-mail; a CDN the panel cannot work without).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { openBrowser, screenshot, signIn, startAdminSite, type AdminSite, type TestBrowser } from '../support/browser'

let site: AdminSite
let browser: TestBrowser

beforeAll(async () => {
  site = await startAdminSite()
  browser = await openBrowser()
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

describe('signing in to the admin panel', () => {
  it('reaches the dashboard through the login form, with every request on loopback', async () => {
    const page = await browser.newPage()
    await signIn(page, site.base, await site.superAdmin())
    await page
      .getByRole('link', { name: /layouts/i })
      .first()
      .waitFor()
    await screenshot(page, 'admin-dashboard')
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
  }, 120_000)
})

/**
 * Real-browser tests of the admin panel: Debian's chromium driven by
 * playwright-core (no browser download), with every request that would leave
 * the machine blocked and recorded, so a test can assert the panel works
 * offline (no CDN asset, no third-party avatar).
 *
 *   const site = await startAdminSite()                 // its own database, the demo seeded, /admin ready
 *   const browser = await openBrowser()
 *   const page = await browser.newPage()
 *   await signIn(page, site.base, await site.superAdmin())
 *   await screenshot(page, 'dashboard')                  // test-results/dashboard.png
 *   expect(browser.offsite).toEqual([])                   // nothing tried to leave loopback
 *   await browser.close(); await site.stop()
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { createTestDatabase, databaseUrl, releaseDatabase } from './database'
import { ensureAdminBuild } from './nextBuild'
import { PASSWORD } from './server'
import { startSite, stopSite } from './site'
import { waitFor } from './wait'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const root = process.cwd() // jest's rootDir: the project
export const RESULTS_DIR = path.join(root, 'test-results')

export interface Credentials {
  username: string
  password: string
}

export interface AdminSite {
  base: string
  child: ChildProcess
  database: string
  /** The first account (Payload's first-register: an enabled super admin), created on the first call. */
  superAdmin(): Promise<Credentials>
  /** Everything the site process printed. */
  output(): string
  stop(): Promise<void>
}

/** Starts the reference site with the admin panel on a database of its own (the demo seeded unless `SEED_DEMO: '0'`). */
export async function startAdminSite(env: Record<string, string | undefined> = {}): Promise<AdminSite> {
  await ensureAdminBuild()
  const database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
  const site = await startSite(
    { DATABASE_URL: databaseUrl(database), ADMIN_PANEL: '1', SEED_DEMO: '1', CWA_JOBS_RUNNER: '0', ...env },
    240_000,
  )
  await waitFor(
    () =>
      fetch(`${site.base}/admin/login`).then(
        (r) => r.status === 200,
        () => false,
      ),
    {
      timeout: 240_000,
      interval: 200,
      message: () => `the admin panel to be ready:\n${site.output()}`,
    },
  )
  let owner: Promise<Credentials> | undefined
  return {
    base: site.base,
    child: site.child,
    database,
    output: site.output,
    superAdmin: () =>
      (owner ??= (async () => {
        const credentials = { username: 'owner', password: PASSWORD }
        const response = await fetch(`${site.base}/api/users/first-register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...credentials, email: 'owner@example.com', 'confirm-password': PASSWORD }),
        })
        if (!response.ok) throw new Error(`first-register answered ${response.status}: ${await response.text()}`)
        return credentials
      })()),
    async stop() {
      await stopSite(site.child)
      await releaseDatabase(database)
    },
  }
}

export interface TestBrowser {
  browser: Browser
  context: BrowserContext
  newPage(): Promise<Page>
  /** Every URL that tried to leave loopback (failed at the dead proxy), in order. */
  offsite: string[]
  /** Uncaught page errors and console errors, as `<page url>: <message>`. */
  pageErrors: string[]
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/** Whether a request stays on this machine (data:, blob: and about: never leave it). */
export function staysLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url)
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true
  return LOOPBACK.has(hostname)
}

/**
 * A proxy nothing answers on, for every request that would leave loopback: chromium fails them at once, as offline
 * (loopback itself bypasses it). Not Playwright's request interception, which turns the browser's HTTP cache off:
 * every navigation of the admin fetched and compiled its scripts again, the most CPU of the browser tests.
 */
const DEAD_PROXY = 'http://127.0.0.1:9'

/** Launches headless chromium with the network limited to loopback: other requests fail, and are recorded. */
export async function openBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`)
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--proxy-server=${DEAD_PROXY}`,
      '--proxy-bypass-list=127.0.0.1;localhost;[::1]',
    ],
  })
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const offsite: string[] = []
  const pageErrors: string[] = []
  const record = (url: string) => {
    if (!staysLocal(url)) offsite.push(url)
  }
  context.on('request', (request) => record(request.url()))
  // WebSockets are not requests of the context: each page reports its own.
  context.on('page', (page) => page.on('websocket', (socket) => record(socket.url().replace(/^ws/, 'http'))))
  return {
    browser,
    context,
    offsite,
    pageErrors,
    async newPage() {
      const page = await context.newPage()
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`))
      return page
    },
    close: () => browser.close(),
  }
}

/** Fills and sends the admin's login form (what follows is the caller's to check). */
export async function submitLogin(page: Page, base: string, { username, password }: Credentials): Promise<void> {
  await page.goto(`${base}/admin/login`)
  await page.locator('input[name="username"]').fill(username)
  await page.locator('input[name="password"]').fill(password)
  await page.locator('button[type="submit"]').click()
}

/** Signs in through the admin's login form and waits for the dashboard. */
export async function signIn(page: Page, base: string, credentials: Credentials): Promise<void> {
  await submitLogin(page, base, credentials)
  await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/', { timeout: 60_000 })
}

/** Saves a full-page screenshot as test-results/<name>.png (for review; the README shows some). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const file = path.join(RESULTS_DIR, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  // `npm run screenshots`: the ones the docs show are refreshed there too.
  if (process.env.CWA_DOCS_SCREENSHOTS === '1' && DOCS_SCREENSHOTS.has(name))
    copyFileSync(file, path.join(root, 'docs', 'screenshots', `${name}.png`))
  return file
}

/** The screenshots docs/ and the README show (docs/screenshots/<name>.png), taken by the browser tests. */
const DOCS_SCREENSHOTS = new Set([
  'admin-dashboard',
  'admin-block-editor',
  'admin-edit-rich-text',
  'admin-list-html-contents',
  'admin-images-list',
  'admin-page-builder',
  'admin-page-builder-refusal',
  'admin-page-preview',
  'admin-quick-edit-conflict',
  'admin-builder-leave-guard',
  'admin-page-builder-rich-text',
  'admin-page-builder-row-menu',
  'admin-publishing-scheduled',
  'admin-new-page',
])

/**
 * A same-origin request from a signed-in admin page (its own session cookie), as the panel's own scripts send
 * them: Payload's REST API with JSON, the answer's status and JSON body (null when it has none).
 */
export async function requestInPage(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
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

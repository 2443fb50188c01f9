/**
 * The admin panel on the site's port: `npm start` builds it when no build
 * exists (can take a minute), serves /admin, and Payload's first-register
 * screen makes the first account a super admin who can reach the panel.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { ChildProcess } from 'node:child_process'
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/database'
import { PASSWORD } from '../support/server'
import { cleanupSites, freePort, startSite, stopSite } from '../support/site'
import { waitFor } from '../support/wait'
import { ensureAdminBuild } from '../support/nextBuild'

let base: string
let child: ChildProcess
let database: string

/** What /admin/login answered while the JSON-LD API already answered and the panel was not ready yet. */
let whilePreparing: { status: number; retryAfter: string | null; text: string } | undefined

beforeAll(async () => {
  // One `next build` at a time across test files (the browser tests share .next/): this start then finds a build.
  await ensureAdminBuild()
  database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
  // The APIs answer as soon as they are ready; the admin panel is prepared (built on a first start) after them.
  // With a build, preparing takes well under a second: /admin/login is watched from the start, not once the start is seen.
  const port = await freePort()
  let watching = true
  const watch = (async () => {
    while (watching && !whilePreparing) {
      const response = await fetch(`http://127.0.0.1:${port}/admin/login`).catch(() => null)
      if (response?.status === 503) {
        // Before the app exists the whole server answers a plain 503 ("starting"); only the admin's own wait page counts.
        const text = await response.text()
        const api = await fetch(`http://127.0.0.1:${port}/_api/`).catch(() => null)
        if (api?.ok && /the admin panel/.test(text))
          whilePreparing = { status: 503, retryAfter: response.headers.get('retry-after'), text }
        else await api?.arrayBuffer()
      } else await response?.arrayBuffer()
      if (response?.status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  try {
    const site = await startSite(
      { DATABASE_URL: databaseUrl(database), ADMIN_PANEL: '1', SEED_DEMO: '0', PORT: String(port) },
      240_000,
    )
    base = site.base
    child = site.child
    await waitFor(async () => (await fetch(`${base}/admin/login`)).status === 200, {
      timeout: 240_000,
      interval: 50,
      message: 'the admin panel to be ready',
    })
  } finally {
    watching = false
    await watch
  }
}, 500_000)

afterAll(async () => {
  if (child) await stopSite(child)
  cleanupSites()
  await dropDatabase(database)
})

async function html(path: string, cookie?: string) {
  const response = await fetch(`${base}${path}`, { headers: cookie ? { cookie } : {} })
  return { status: response.status, text: await response.text() }
}

describe('admin panel', () => {
  it('answers /admin with a "building the admin panel" page (503, Retry-After) while the APIs already answer', () => {
    expect(whilePreparing).toBeDefined()
    expect(whilePreparing!.retryAfter).toBe('10')
    // "Building the admin panel" on a first start, "Starting the admin panel" when a build exists.
    expect(whilePreparing!.text).toMatch(/(Building|Starting) the admin panel/)
  })

  it('serves /admin next to the APIs on the same port', async () => {
    const login = await html('/admin/login')
    expect(login.status).toBe(200)
    expect(login.text.startsWith('<!DOCTYPE html>')).toBe(true)
    expect((await fetch(`${base}/_api/`)).status).toBe(200)
    expect((await fetch(`${base}/api/pages`)).status).toBe(200)
  })

  it('makes the first registered account a super admin who reaches the dashboard', async () => {
    const register = await fetch(`${base}/api/users/first-register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'owner',
        email: 'owner@example.com',
        password: PASSWORD,
        'confirm-password': PASSWORD,
      }),
    })
    expect(register.status).toBeLessThan(300)
    const body = await register.json()
    expect(body.user.roles).toEqual(['ROLE_SUPER_ADMIN'])

    const login = await fetch(`${base}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'owner', password: PASSWORD }),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const dashboard = await html('/admin', cookie)
    expect(dashboard.status).toBe(200)
    // Assert on small facts: a failure must not print the whole page.
    expect(/<title>Dashboard\b/.test(dashboard.text)).toBe(true)
    expect(dashboard.text.includes('href="/admin/collections/layouts"')).toBe(true)
  })

  it('sends an anonymous visitor to the login screen without content', async () => {
    const list = await html('/admin/collections/pages')
    expect(list.text.includes('PrimaryPageTemplate')).toBe(false)
    expect(/\/admin\/login/.test(list.text)).toBe(true)
  })
})

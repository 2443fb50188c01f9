/**
 * The Lexical editor no longer keeps the site from starting without a
 * terminal (a service, CI). The cause (src/config/richTextEditor.ts): Lexical
 * 0.50's `*.node.mjs` wrappers pick their build with a top-level
 * `await import()`, and on Node 20 a graph of them ends the process with exit
 * code 13 on most starts, stdin closed or not. The fix resolves `lexical` and
 * `@lexical/*` to their builds directly.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/database'
import { cleanupSites, dirs, startSite, stopSite } from '../support/site'

const root = process.cwd()
let database: string | undefined

afterAll(async () => {
  cleanupSites()
  if (database) await dropDatabase(database)
})

describe('starting with the Lexical editor and no terminal', () => {
  it('the site starts with stdin closed and serves HtmlContent edited with Lexical', async () => {
    database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
    // startSite spawns the start script with stdin 'ignore' (no terminal, as a service runs it).
    const { base, child } = await startSite({
      DATABASE_URL: databaseUrl(database),
      SEED_DEMO: '1',
      CWA_JOBS_RUNNER: '0',
    })
    const list = await (await fetch(`${base}/_api/component/html_contents`)).json()
    expect(list.member.length).toBeGreaterThan(0)
    expect(list.member[0].html).toMatch(/^<p>/)
    expect(await stopSite(child)).toBe(0)
  }, 240_000)

  it('loading the editor as the site does, five times over with stdin closed, never ends the process early', async () => {
    // The editor module as `npm start` bundles it (esbuild, packages external), then a bare Node process per run.
    const dir = mkdtempSync(path.join(root, 'node_modules', '.cache', 'cwa-lexical-'))
    dirs.push(dir)
    const entry = path.join(dir, 'entry.ts')
    writeFileSync(
      entry,
      `import { richTextEditor } from '${path.join(root, 'src/config/richTextEditor')}'\nawait richTextEditor()\nconst { convertLexicalToHTML } = await import('@payloadcms/richtext-lexical/html')\nconsole.log(typeof convertLexicalToHTML)\n`,
    )
    const outfile = path.join(dir, 'entry.mjs')
    await build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'silent',
    })
    const env = { ...process.env }
    delete env.JEST_WORKER_ID
    delete env.NODE_OPTIONS
    for (let run = 0; run < 5; run++) {
      const result = spawnSync(process.execPath, [outfile], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect({ run, status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() }).toEqual({
        run,
        status: 0,
        stdout: 'function',
        stderr: '',
      })
    }
  }, 240_000)
})

/**
 * The plugin options (issue 9, section 5): an options file (CWA_CONFIG_FILE) with an unknown key stops `npm start`
 * before it serves anything. The rest of the options' rules need no process and no database:
 * test/core/options.unit.test.ts.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { databaseUrl } from '../support/database'
import { cleanupSites, startSite } from '../support/site'

const dir = mkdtempSync(path.join(tmpdir(), 'cwa-options-'))
afterAll(() => {
  cleanupSites()
  rmSync(dir, { recursive: true, force: true })
})

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('CWA_CONFIG_FILE with an unknown key', () => {
  const badFile = () => {
    const file = path.join(dir, `options-${Math.random().toString(36).slice(2)}.json`)
    writeFileSync(file, JSON.stringify({ websiteName: 'Site', user: { emailVerfication: { verifyOnRegister: true } } }))
    return file
  }

  it('stops `npm start` (the start script in its own process) before it serves anything', async () => {
    const file = badFile()
    // A database that does not exist: the options are refused before any connection is made.
    const start = startSite({
      CWA_CONFIG_FILE: file,
      DATABASE_URL: databaseUrl('cwa_options_test_never_created'),
      SEED_DEMO: '0',
    })
    await expect(start).rejects.toThrow(/start exited with 1/)
    await expect(start).rejects.toThrow(
      new RegExp(
        `Error: CWA_CONFIG_FILE ${escape(file)}: unknown key user\\.emailVerfication \\(did you mean user\\.emailVerification\\?\\)`,
      ),
    )
  }, 120_000)
})

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { postgresAdapter } from '@payloadcms/db-postgres'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildConfig } from 'payload'
import { cwaPlugin } from 'payload-cwa'
import {
  assembleCommands,
  builtInCommands,
  cwaCommands as commandEntries,
} from '../../plugins/cwa/dist/commands/list.js'
import { BUILT_IN_FEATURES } from '../../plugins/cwa/dist/features.js'
import { expectExit, runPayloadCommand, UNREACHABLE_DATABASE_URL } from '../support/command'
import { startTestServer, type TestServer } from '../support/server'

/**
 * The operator commands come with the plugin (docs/operations.md, "Operator commands"): cwaPlugin() registers
 * them in the config's `bin`, so Payload's own CLI runs them (`npx payload cwa:<name>`) in any app, and the
 * package's runner (`npx payload-cwa cwa:<name>`) runs the same modules without Payload's TypeScript loader.
 * The other command tests go through the runner; these check both doors.
 */

let server: TestServer

/** The config's bin entries of the built-in features' commands (each declared by its feature) and the core's. */
const cwaCommands = () => commandEntries(BUILT_IN_FEATURES)

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

/** These tests are about the launchers themselves: started as an operator types them. */
const NPX = { launcher: 'npx' } as const
const USAGE = 'cwa:purge-http-cache takes no argument (got extra).\nUsage: npx payload cwa:purge-http-cache'

describe('the commands in the config', () => {
  it("cwaPlugin() adds every command to the app's bin, after the app's own; an app's command of the same key wins", async () => {
    const config = await buildConfig(
      cwaPlugin({})({
        secret: 'x'.repeat(32),
        db: postgresAdapter({ pool: { connectionString: UNREACHABLE_DATABASE_URL }, idType: 'uuid' }),
        bin: [
          { key: 'cwa:scan-orphaned', scriptPath: '/app/own-scan.js' },
          { key: 'app:thing', scriptPath: '/app/thing.js' },
        ],
      }),
    )
    const keys = (config.bin ?? []).map((entry) => entry.key)
    expect(keys.slice(0, 2)).toEqual(['cwa:scan-orphaned', 'app:thing'])
    expect(keys.filter((key) => key === 'cwa:scan-orphaned')).toHaveLength(1)
    expect(config.bin!.find((entry) => entry.key === 'cwa:scan-orphaned')!.scriptPath).toBe('/app/own-scan.js')
    expect(new Set(keys)).toEqual(new Set(['app:thing', ...cwaCommands().map((entry) => entry.key)]))
    // Compiled modules of the package, not TypeScript: nothing to transpile when a command runs.
    for (const entry of cwaCommands()) expect(entry.scriptPath).toMatch(/plugins\/cwa\/dist\/commands\/[a-zA-Z]+\.js$/)
  })

  it("the runner finds the same commands from the features' declaration files as cwaPlugin() from the features", async () => {
    const keys = (await builtInCommands()).map(({ key }) => key)
    expect(keys).toEqual(cwaCommands().map(({ key }) => key))
    expect(keys).toHaveLength(15)
    // Each feature declares its own: the orphan scan is the orphans feature's, the user's creation the users'.
    const declaredBy = (name: string) => BUILT_IN_FEATURES.find((f) => f.name === name)?.commands?.map((c) => c.key)
    expect(declaredBy('orphans')).toEqual(['cwa:scan-orphaned', 'cwa:clean-orphaned'])
    expect(declaredBy('users')).toEqual(['cwa:user:create'])
    expect(declaredBy('session')).toEqual(['cwa:refresh-tokens:expire'])
    expect(declaredBy('frontEnd')).toEqual(['cwa:client-types'])
  })

  it('refuses two commands of one name, naming it', () => {
    const command = { key: 'cwa:thing', description: 'a thing', load: async () => ({ script: async () => 0 }) } as const
    expect(() => assembleCommands([[command], [command]])).toThrow('cwa commands: two commands are named cwa:thing')
  })
})

describe("Payload's CLI and the package's runner", () => {
  it('npx payload cwa:<name> runs the command registered by the plugin (refusal and exit code as the command says)', async () => {
    const run = await runPayloadCommand(
      'cwa:purge-http-cache',
      ['extra'],
      { DATABASE_URL: UNREACHABLE_DATABASE_URL },
      { via: 'payload', launcher: 'npx' },
    )
    expectExit(run, 1)
    expect(run.stderr.trim()).toBe(USAGE)
  })

  it('npx payload-cwa cwa:<name> refuses the same way', async () => {
    const run = await runPayloadCommand(
      'cwa:purge-http-cache',
      ['extra'],
      { DATABASE_URL: UNREACHABLE_DATABASE_URL },
      NPX,
    )
    expectExit(run, 1)
    expect(run.stderr.trim()).toBe(USAGE)
  })

  it('npx payload-cwa with an unknown command lists the commands (exit 1), reaching no database', async () => {
    const run = await runPayloadCommand('cwa:nope', [], { DATABASE_URL: UNREACHABLE_DATABASE_URL }, NPX)
    expectExit(run, 1)
    expect(run.stderr).toContain('Unknown command cwa:nope. Usage: npx payload-cwa <command> [arguments], one of:')
    for (const { key } of cwaCommands()) expect(run.stderr).toContain(`  ${key}\n`)
  })

  it("npx payload cwa:scan-orphaned runs to its end on the database through Payload's CLI (exit 0)", async () => {
    const run = await runPayloadCommand(
      'cwa:scan-orphaned',
      [],
      { DATABASE_URL: server.databaseUrl },
      { via: 'payload', launcher: 'npx' },
    )
    expectExit(run, 0)
    expect(run.stdout).toContain('Orphaned components: ')
  })
})

describe("the package's runner on Node 20 (issue 37)", () => {
  it('runs the command under the production condition, and on an unsettled top-level await (exit 13) removes its bundle and says why', async () => {
    // A config whose import never settles: what Node 20's loader made of Lexical's wrappers about 3 runs in 4
    // (exit 13, no output, the bundle left beside the config). It prints the flags the command process runs with.
    const dir = mkdtempSync(path.join(tmpdir(), 'cwa-runner-'))
    try {
      writeFileSync(
        path.join(dir, 'payload.config.ts'),
        "console.log('flags: ' + process.execArgv.join(' '))\nawait new Promise(() => {})\nexport default {}\n",
      )
      const run = await runPayloadCommand(
        'cwa:scan-orphaned',
        [],
        {
          DATABASE_URL: UNREACHABLE_DATABASE_URL,
          PAYLOAD_CONFIG_PATH: path.join(dir, 'payload.config.ts'),
          NODE_OPTIONS: '',
        },
        NPX,
      )
      expectExit(run, 13)
      expect(run.stdout).toMatch(/^flags: .*--conditions=production/m)
      expect(run.stderr).toContain('payload-cwa: cwa:scan-orphaned ended before finishing (exit 13')
      expect(readdirSync(dir)).toEqual(['payload.config.ts'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("hands a command that is not the plugin's to Payload's CLI, under the same condition (npx payload-cwa info)", async () => {
    const run = await runPayloadCommand('info', [], { NODE_OPTIONS: '' }, NPX)
    expectExit(run, 0)
    expect(run.stdout).toMatch(/^\s+payload: 3\.\d+\.\d+$/m)
  })
})

/**
 * The test files' environment: jest's Node environment, plus the worker's
 * own realm for the modules every file shares (outerRealm/policy.ts).
 * TypeScript modules load there through tsx, once per worker. Files share
 * the real process.env (the shared modules read it), restored after each
 * file, so a file's changes never reach the next.
 */
import { appendFileSync } from 'node:fs'
import { TestEnvironment } from 'jest-environment-node'
import { register } from 'tsx/esm/api'
import { rememberPasswordHashes } from './passwordHashes.mjs'
import { cpuNow } from '../cpuTime.mjs'

register()
// A password hash derived once is not derived again by this worker (passwordHashes.mjs says why it is exact).
rememberPasswordHashes()

// Payload's schema push skips a schema equal to the last one it pushed in this process (a module-level memory in
// @payloadcms/drizzle). Its modules now outlive a file: the next file's minimal site, on a new empty database, would
// get no tables. Every database a test pushes to is new, so every push runs.
process.env.PAYLOAD_FORCE_DRIZZLE_PUSH = 'true'

export default class CwaTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context)
    this.testPath = context.testPath
    this.global.__cwaOuterImport = process.env.CWA_OUTER_TRACE
      ? async (url) => {
          const line = (what) =>
            appendFileSync(process.env.CWA_OUTER_TRACE, `${process.pid} ${Date.now()} ${what} ${url}\n`)
          line('start')
          try {
            return await import(url)
          } finally {
            line('done')
          }
        }
      : (url) => import(url)
    // An error thrown by a shared module is the worker realm's: `instanceof Error` (and jest's toBeInstanceOf(Error))
    // in the file answers for it as for its own, as Array.isArray does for arrays. Subclasses keep the usual check.
    for (const name of ['Error', 'TypeError', 'RangeError', 'SyntaxError']) {
      const sandboxed = this.global[name]
      const outer = globalThis[name]
      Object.defineProperty(sandboxed, Symbol.hasInstance, {
        value(value) {
          return (
            Function.prototype[Symbol.hasInstance].call(this, value) || (this === sandboxed && value instanceof outer)
          )
        },
      })
    }
    Object.defineProperty(this.global.process, 'env', { value: process.env, writable: true, configurable: true })
  }

  async setup() {
    await super.setup()
    // The file this worker runs now, for modules shared between files (test/support/sharedTime.ts).
    process.env.CWA_TEST_FILE = this.testPath
    this.savedEnv = { ...process.env }
    // Its CPU seconds (npm test sets CWA_TEST_CPU_LOG; they judge the file's cost, scripts/test-timings.mjs).
    if (process.env.CWA_TEST_CPU_LOG) this.cpuAtStart = cpuNow()
  }

  async teardown() {
    if (this.cpuAtStart) {
      // One line per file: its CPU seconds in the worker, in the processes it started, and its path.
      const end = cpuNow()
      const spent = (key) => (end[key] - this.cpuAtStart[key]).toFixed(1)
      appendFileSync(process.env.CWA_TEST_CPU_LOG, `${spent('self')} ${spent('children')} ${this.testPath}\n`)
    }
    for (const key of Object.keys(process.env)) if (!(key in this.savedEnv)) delete process.env[key]
    Object.assign(process.env, this.savedEnv)
    await super.teardown()
  }
}

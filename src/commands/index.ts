import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { projectRoot } from '../config/projectRoot'

const dir = path.join(projectRoot(import.meta.url), 'src', 'commands')

/** Operator commands, run as `npx payload cwa:<name>`. */
export const commands = [
  { key: 'cwa:user:create', scriptPath: path.resolve(dir, 'userCreate.ts') },
  { key: 'cwa:refresh-tokens:expire', scriptPath: path.resolve(dir, 'refreshTokensExpire.ts') },
]

/** Whether this process is Payload's bin (`npx payload ...`, `node node_modules/payload/bin.js ...`). */
export function isPayloadBin(argv1: string | undefined = process.argv[1]): boolean {
  return /[\\/](?:\.bin[\\/]payload|payload[\\/]bin\.js)$/.test(argv1 ?? '')
}

const STARTED = Symbol.for('cwa.command.started')
const RETRY_ENV = 'CWA_BIN_RETRY'
const MAX_RETRIES = 3

/** Called by runCommand once a command body is about to run. */
export function markCommandStarted(): void {
  ;(globalThis as Record<symbol, unknown>)[STARTED] = true
}

/**
 * Payload's bin imports the config and the command's script through tsx's
 * asynchronous loader thread. On Node 20 that import now and then never
 * settles (payloadcms/payload#17757; measured here: about one run in ten);
 * nothing keeps the event loop alive, so the process exits with code 0
 * before the command has run: a silent "success" that did nothing.
 *
 * Payload's bin and runCommand always end with process.exit(), which never
 * emits 'beforeExit'; so under the bin, 'beforeExit' means exactly that lost
 * import. Before the command started, nothing has happened yet and the same
 * command line is run again (a few times at most); after it started, it is
 * reported as a failure (exit 1), never as success.
 */
function guardAgainstSilentExit(): void {
  process.once('beforeExit', () => {
    if ((globalThis as Record<symbol, unknown>)[STARTED]) {
      console.error('The command stopped before finishing (lost module import); nothing reported as done.')
      process.exit(1)
    }
    const attempt = Number(process.env[RETRY_ENV] ?? 0) + 1
    if (attempt > MAX_RETRIES) {
      console.error(`Payload's bin stopped while loading the command ${MAX_RETRIES} times; giving up.`)
      process.exit(1)
    }
    const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, [RETRY_ENV]: String(attempt) },
    })
    process.exit(child.status ?? 1)
  })
}

if (isPayloadBin()) guardAgainstSilentExit()

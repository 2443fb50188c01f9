import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import type { Payload } from 'payload'
import pg from 'pg'
import type { CwaPluginOptions } from '../../plugins/cwa/dist/options.js'
import { buildSiteConfig } from '../../payload.config'
import { getOptions } from '../../plugins/cwa/dist/core/registry.js'
import { createApp } from '../../plugins/cwa/dist/server/express.js'
import { startPayload } from '../../src/server/bootstrap'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { closePayload } from '../../plugins/cwa/dist/core/utils/closePayload.js'
import { apiClient, type RequestOptions, type TestResponse } from './apiClient'
import { createTestDatabase, databaseUrl, releaseDatabase } from './database'
import { shutDownWithin } from './shutdown'

export type { RequestOptions, TestResponse }

export interface TestServer {
  url: string
  payload: Payload
  database: string
  databaseUrl: string
  request(method: string, path: string, json?: unknown, options?: RequestOptions): Promise<TestResponse>
  get(path: string, options?: RequestOptions): Promise<TestResponse>
  post(path: string, json?: unknown, options?: RequestOptions): Promise<TestResponse>
  patch(path: string, json?: unknown, options?: RequestOptions): Promise<TestResponse>
  delete(path: string, options?: RequestOptions): Promise<TestResponse>
  /** Creates a user directly (email-verified, enabled unless said) and returns its id. */
  createUser(username: string, roles?: string[], extra?: Record<string, unknown>): Promise<string>
  /** Logs in through POST /_api/login and returns the JWT from the Set-Cookie header. */
  login(username: string, password?: string): Promise<string>
  /** Creates a user with the role and logs in; returns the JWT. */
  tokenFor(role: 'ROLE_USER' | 'ROLE_ADMIN' | 'ROLE_SUPER_ADMIN'): Promise<string>
  /** Runs SQL on this server's database (fixtures and checks), on a connection of its own. */
  sql(text: string, params?: unknown[]): Promise<any[]>
  /** Counts SQL queries sent while `fn` runs. */
  countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number; sql: string[] }>
  /**
   * Counts an idempotent read's queries twice and keeps the lesser count: work a request left running (an earlier
   * write's after-commit side effects) can land in a window and only ever adds statements.
   */
  fewestQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number; sql: string[] }>
  close(): Promise<void>
}

export const PASSWORD = 'correct horse battery staple'

let queryLog: string[] | null = null
const originalQuery = pg.Client.prototype.query
// Every SQL statement Payload sends goes through pg.Client#query (pool.query included).
pg.Client.prototype.query = function patchedQuery(this: pg.Client, ...args: unknown[]) {
  if (queryLog) {
    const first = args[0] as string | { text?: string }
    queryLog.push(typeof first === 'string' ? first : (first?.text ?? ''))
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args)
} as typeof pg.Client.prototype.query

/**
 * Runs `build` with MAILER_DSN set to `dsn` (the mail adapter reads it while
 * the config is built), then restores the environment: one test file's SMTP
 * server (test/support/smtp.ts) never leaks into another server.
 */
function withMailerDsn<T>(dsn: string | undefined, build: () => T): T {
  if (dsn === undefined) return build()
  const previous = process.env.MAILER_DSN
  process.env.MAILER_DSN = dsn
  try {
    return build()
  } finally {
    if (previous === undefined) delete process.env.MAILER_DSN
    else process.env.MAILER_DSN = previous
  }
}

/**
 * Starts the reference site on a fresh database cloned from the migrated
 * template: real PostgreSQL, real Express, real HTTP on a loopback port.
 */
export async function startTestServer({
  options,
  mailerDsn,
}: { options?: Partial<CwaPluginOptions>; mailerDsn?: string } = {}): Promise<TestServer> {
  const template = process.env.CWA_TEST_TEMPLATE
  if (!template) throw new Error('CWA_TEST_TEMPLATE is not set: run the tests with npm test')
  const database = await createTestDatabase(template)
  const url = databaseUrl(database)
  const payload = await startPayload({
    config: withMailerDsn(mailerDsn, () => buildSiteConfig({ databaseUrl: url, options })),
    key: database,
  })
  // Dropping the database at the end terminates idle clients: that must not fail the file.
  ;(payload.db as unknown as { pool?: { on(event: 'error', fn: () => void): void } }).pool?.on('error', () => {})
  const keys = await loadJwtKeys(process.env)
  const app = createApp({ payload, keys })
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const prefix = getOptions(payload.config).apiPrefix

  const request = apiClient(base)

  const createUser = async (username: string, roles = ['ROLE_USER'], extra: Record<string, unknown> = {}) => {
    const user = await payload.create({
      collection: 'users',
      data: {
        username,
        email: `${username}@example.com`,
        password: PASSWORD,
        roles,
        enabled: true,
        emailAddressVerified: true,
        ...extra,
      } as never,
      depth: 0,
    })
    return String(user.id)
  }

  const login = async (username: string, password = PASSWORD) => {
    const response = await request(
      'POST',
      `${prefix}/login`,
      { username, password },
      { contentType: 'application/json' },
    )
    if (response.status !== 204) throw new Error(`login failed: ${response.status} ${response.text}`)
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('api_component='))
    return decodeURIComponent(cookie!.split(';')[0]!.split('=')[1]!)
  }

  const countQueries: TestServer['countQueries'] = async (fn) => {
    queryLog = []
    try {
      const result = await fn()
      return { result, queries: queryLog.length, sql: queryLog }
    } finally {
      queryLog = null
    }
  }

  return {
    url: base,
    payload,
    database,
    databaseUrl: url,
    request,
    get: (path, opts) => request('GET', path, undefined, opts),
    post: (path, json, opts) => request('POST', path, json, opts),
    patch: (path, json, opts) => request('PATCH', path, json, opts),
    delete: (path, opts) => request('DELETE', path, undefined, opts),
    createUser,
    login,
    async tokenFor(role) {
      const username = `${role.toLowerCase()}_${randomBytes(3).toString('hex')}`
      await createUser(username, [role])
      return login(username)
    },
    async sql(text, params = []) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        return (await client.query(text, params)).rows
      } finally {
        await client.end()
      }
    },
    countQueries,
    async fewestQueries(fn) {
      const first = await countQueries(fn)
      const second = await countQueries(fn)
      return second.queries < first.queries ? second : first
    },
    async close() {
      server.close()
      // Keep-alive sockets would hold close() open; every test has its answers by now.
      server.closeAllConnections()
      await shutDownWithin(database, () => closePayload(payload))
      await releaseDatabase(database)
    },
  }
}

import { postgresAdapter } from '@payloadcms/db-postgres'
import { randomBytes } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildConfig, type CollectionConfig, type Config, getPayload, type Payload } from 'payload'
import {
  closePayload,
  cwaPlugin,
  type CwaPluginOptions,
  getOptions,
  type HydraExtension,
  payloadKeys,
} from 'payload-cwa'
import { createApp } from 'payload-cwa/express'
import pg from 'pg'
import { databaseUrl, dropDatabase, testDatabaseCreatedAt, withAdminClient } from './database'
import { apiClient, type RequestOptions, type TestResponse } from './apiClient'

/**
 * A Payload app that is NOT the reference site: a minimal config (the
 * caller's collections and cwaPlugin, nothing else) on a fresh, empty
 * database whose schema Payload pushes from that config (the committed
 * migrations describe the reference site, not this config). The JSON-LD API
 * is served through the library's front door (`createApp` from
 * `payload-cwa`) with the JWT keys of the environment (test/support/prepare.ts).
 * One per feature that can run alone: the feature's tests then show what it
 * needs, and that it does not lean on the site's types.
 */

export interface MinimalSite {
  url: string
  payload: Payload
  database: string
  /** The plugin's API prefix (`/_api` unless the options say otherwise). */
  prefix: string
  request(method: string, path: string, json?: unknown, options?: RequestOptions): Promise<TestResponse>
  get(path: string, options?: RequestOptions): Promise<TestResponse>
  post(path: string, json?: unknown, options?: RequestOptions): Promise<TestResponse>
  patch(path: string, json?: unknown, options?: RequestOptions): Promise<TestResponse>
  /** Creates a user with the role (Local API, e-mail verified, enabled), logs in through POST {prefix}/login and returns the JWT. */
  tokenFor(role: 'ROLE_USER' | 'ROLE_ADMIN' | 'ROLE_SUPER_ADMIN'): Promise<string>
  /** Runs SQL on this site's database, on a connection of its own. */
  sql(text: string, params?: unknown[]): Promise<any[]>
  close(): Promise<void>
}

export interface MinimalSiteOptions {
  /** The app's own types (defineComponent / definePageData or plain Payload collections). */
  collections?: CollectionConfig[]
  /** cwaPlugin's options. */
  options?: CwaPluginOptions
  /** Extensions of the app, registered as a plugin author does (`custom.cwa.extensions`). */
  extensions?: HydraExtension[]
  /** The config's rich-text editor (Payload's templates set `lexicalEditor()`). */
  editor?: Config['editor']
}

const PASSWORD = 'correct horse battery staple'

/** An empty database named like the template clones (`cwa_test_<unixtime>_<hex>`), so prepare.ts drops it if a run crashes. */
async function createEmptyDatabase(): Promise<string> {
  const name = `cwa_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`
  if (testDatabaseCreatedAt(name) === null) throw new Error(`${name} does not follow the test database naming scheme`)
  await withAdminClient((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE template0`))
  return name
}

export async function startMinimalSite({
  collections = [],
  options = {},
  extensions = [],
  editor,
}: MinimalSiteOptions = {}): Promise<MinimalSite> {
  const database = await createEmptyDatabase()
  let payload: Payload | undefined
  let server: Server | undefined
  try {
    const config = await buildConfig({
      secret: process.env.PAYLOAD_SECRET ?? 'minimal-site-test-secret',
      db: postgresAdapter({
        pool: { connectionString: databaseUrl(database), options: '-c jit=off' },
        idType: 'uuid',
        // The schema comes from this config (pushed because jest runs with NODE_ENV=test).
        push: true,
      }),
      collections,
      ...(editor ? { editor } : {}),
      plugins: [cwaPlugin(options)],
      ...(extensions.length > 0 ? { custom: { cwa: { extensions } } } : {}),
      // No generated types file and no import map: nothing of this app is written to the tree.
      typescript: { autoGenerate: false },
      admin: { importMap: { autoGenerate: false } },
      telemetry: false,
    })
    // Its own getPayload cache entry (the database name), which Payload's REST handler in createApp must use too.
    payload = await getPayload({ config, key: database })
    payloadKeys.set(payload, database)
    // Dropping the database at the end terminates idle clients: that must not fail the file.
    ;(payload.db as unknown as { pool?: { on(event: 'error', fn: () => void): void } }).pool?.on('error', () => {})
    const app = createApp({ payload })
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s))
    })
  } catch (error) {
    if (payload) await closePayload(payload)
    await dropDatabase(database)
    throw error
  }
  const started = payload
  const listening = server
  const url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
  const prefix = getOptions(started.config).apiPrefix
  const request = apiClient(url)

  return {
    url,
    payload: started,
    database,
    prefix,
    request,
    get: (path, opts) => request('GET', path, undefined, opts),
    post: (path, json, opts) => request('POST', path, json, opts),
    patch: (path, json, opts) => request('PATCH', path, json, opts),
    async tokenFor(role) {
      const username = `${role.toLowerCase()}_${randomBytes(3).toString('hex')}`
      await started.create({
        collection: 'users',
        data: {
          username,
          email: `${username}@example.com`,
          password: PASSWORD,
          roles: [role],
          enabled: true,
          emailAddressVerified: true,
        } as never,
        depth: 0,
      })
      const response = await request(
        'POST',
        `${prefix}/login`,
        { username, password: PASSWORD },
        { contentType: 'application/json' },
      )
      if (response.status !== 204) throw new Error(`login failed: ${response.status} ${response.text}`)
      const cookie = response.headers.getSetCookie().find((c) => c.startsWith('api_component='))
      if (!cookie) throw new Error(`login set no api_component cookie: ${response.headers.getSetCookie().join(' | ')}`)
      return decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!)
    },
    async sql(text, params = []) {
      const client = new pg.Client({ connectionString: databaseUrl(database) })
      await client.connect()
      try {
        return (await client.query(text, params)).rows
      } finally {
        await client.end()
      }
    },
    async close() {
      await new Promise((resolve) => listening.close(resolve))
      await closePayload(started)
      await dropDatabase(database)
    },
  }
}

import { postgresAdapter } from '@payloadcms/db-postgres'
import path from 'node:path'
import { buildConfig, type Config, type SanitizedConfig } from 'payload'
import { siteComponents } from './collections/components'
import { newsletterSignups } from './collections/forms'
import { sitePageData } from './collections/pageData'
import { generatedComponents, generatedPageData } from './collections/generated'
import { migrations } from './migrations'
import {
  cwaPlugin,
  type CwaPluginOptions,
  DATABASE_RETRY_AFTER,
  isDatabaseUnavailable,
  resolveOptions,
} from 'payload-cwa'
import { siteCommands } from './src/config/commands'
import { deepMerge } from './src/config/deepMerge'
import { embeddedDatabaseUrl, replicaUrls } from './src/config/databaseUrl'
import { sitePg, sitePoolConfig } from './src/config/databasePool'
import { projectRoot } from './src/config/projectRoot'
import { richTextEditor } from './src/config/richTextEditor'
import { payloadSecret } from './src/config/secrets'
import { siteOptions } from './src/config/siteOptions'
import { mailAdapter } from './src/mail/adapter'

const dirname = projectRoot(import.meta.url)
type PostgresArgs = Parameters<typeof postgresAdapter>[0]

export interface SiteConfigOverrides {
  /** Plugin options deep-merged over the site's (after CWA_CONFIG_FILE). */
  options?: Partial<CwaPluginOptions>
  databaseUrl?: string
}

/** The reference site: the cwa plugin plus the reference deployment's types. */
export function buildSiteConfig(overrides: SiteConfigOverrides = {}): Promise<SanitizedConfig> {
  // Synchronous up to here: a bad CWA_CONFIG_FILE throws as the config module loads (npm start prints the error and stops).
  const options = deepMerge(
    siteOptions() as Record<string, unknown>,
    (overrides.options ?? {}) as Record<string, unknown>,
  ) as CwaPluginOptions
  // The operator commands start the way npm start does (embedded PostgreSQL, migrations): src/config/commands.ts.
  options.commands ??= siteCommands
  const { tablePrefix } = resolveOptions(options)
  // Every setting is read now, synchronously, the plugin's included (tests set MAILER_DSN and others only while this
  // call runs); only the editor loads later.
  const config: Config = {
    secret: payloadSecret(),
    serverURL: process.env.SERVER_URL ?? '',
    routes: { admin: '/admin', api: '/api' },
    admin: {
      user: 'users',
      importMap: { baseDir: dirname },
      meta: { titleSuffix: ' · payload-cwa' },
      // Payload's default avatar comes from a third-party service, sent a hash of the admin's e-mail: a leak, and broken offline.
      avatar: 'default',
    },
    db: postgresAdapter({
      // Timeouts, and connection errors that never crash the process (src/config/databasePool.ts).
      // (Payload's adapter has its own copy of pg's types; the runtime pg is the same.)
      pool: sitePoolConfig(
        overrides.databaseUrl ?? process.env.DATABASE_URL ?? embeddedDatabaseUrl(),
      ) as PostgresArgs['pool'],
      pg: sitePg as unknown as PostgresArgs['pg'],
      // DATABASE_REPLICA_URLS: anonymous reads go to the replicas (docs/scaling.md#read-replicas).
      readReplicas: replicaUrls(),
      // Payload's own read-after-write sends every read of this process to the primary for 2 s after any write it
      // made, which under steady writes leaves the replicas idle, and helps no other instance. The plugin's commit
      // wait (replicaWaitMs) gives read-after-write on every instance instead.
      readReplicasAfterWriteInterval: 0,
      idType: 'uuid',
      push: false,
      migrationDir: path.resolve(dirname, 'migrations'),
      prodMigrations: migrations,
    }),
    email: mailAdapter(),
    collections: [
      ...siteComponents,
      ...generatedComponents,
      ...sitePageData,
      ...generatedPageData,
      newsletterSignups(tablePrefix),
    ],
    // Payload's jobs (the plugin adds its tasks): worked by the runner `npm start` starts (CWA_JOBS_RUNNER=0: off)
    // or by `npx payload cwa:jobs:work`, every CWA_JOBS_CRON (default every 10 s), all queues.
    jobs: { autoRun: [{ cron: process.env.CWA_JOBS_CRON ?? '*/10 * * * * *', allQueues: true, limit: 10 }] },
    // Payload's REST API: a database that is down or frozen is a 503 with Retry-After, not a 500.
    hooks: { afterError: [databaseUnavailableAfterError] },
    // Generated types are not used: the plugin serves types declared at run time. Kept out of the tree.
    typescript: { outputFile: path.resolve(dirname, '.data/payload-types.ts'), autoGenerate: false },
    telemetry: false,
  }
  // Rich text (HtmlContent): Lexical, imported so that Node 20 does not stall on it (src/config/richTextEditor.ts).
  const withPlugin = cwaPlugin(options)(config)
  return richTextEditor().then((editor) => buildConfig({ ...withPlugin, editor }))
}

function databaseUnavailableAfterError({ error, req }: { error: Error; req: { responseHeaders?: Headers } }) {
  if (!isDatabaseUnavailable(error)) return
  req.responseHeaders = new Headers(req.responseHeaders)
  req.responseHeaders.set('Retry-After', String(DATABASE_RETRY_AFTER))
  return { status: 503, response: { errors: [{ message: 'The database is unavailable; retry shortly.' }] } }
}

export default buildSiteConfig()

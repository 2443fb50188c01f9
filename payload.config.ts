import { postgresAdapter } from '@payloadcms/db-postgres'
import path from 'node:path'
import { buildConfig, type SanitizedConfig } from 'payload'
import { siteComponents } from './collections/components'
import { newsletterSignups } from './collections/forms'
import { sitePageData } from './collections/pageData'
import { migrations } from './migrations'
import { cwaPlugin, type CwaPluginOptions, resolveOptions } from 'payload-cwa'
import { commands } from './src/commands'
import { deepMerge } from './src/config/deepMerge'
import { embeddedDatabaseUrl } from './src/config/databaseUrl'
import { projectRoot } from './src/config/projectRoot'
import { payloadSecret } from './src/config/secrets'
import { siteOptions } from './src/config/siteOptions'
import { mailAdapter } from './src/mail/adapter'

const dirname = projectRoot(import.meta.url)

export interface SiteConfigOverrides {
  /** Plugin options deep-merged over the site's (after CWA_CONFIG_FILE). */
  options?: Partial<CwaPluginOptions>
  databaseUrl?: string
}

/** The reference site: the cwa plugin plus the reference deployment's types. */
export function buildSiteConfig(overrides: SiteConfigOverrides = {}): Promise<SanitizedConfig> {
  const options = deepMerge(siteOptions() as Record<string, unknown>, (overrides.options ?? {}) as Record<string, unknown>) as CwaPluginOptions
  const { tablePrefix } = resolveOptions(options)
  return buildConfig({
    secret: payloadSecret(),
    serverURL: process.env.SERVER_URL ?? '',
    routes: { admin: '/admin', api: '/api' },
    admin: {
      user: 'users',
      importMap: { baseDir: dirname },
      meta: { titleSuffix: ' · payload-cwa' },
    },
    db: postgresAdapter({
      pool: {
        connectionString: overrides.databaseUrl ?? process.env.DATABASE_URL ?? embeddedDatabaseUrl(),
        // The recursive route/manifest queries cross jit_above_cost and would spend ~120 ms compiling a 3 ms query.
        options: '-c jit=off',
      },
      idType: 'uuid',
      push: false,
      migrationDir: path.resolve(dirname, 'migrations'),
      prodMigrations: migrations,
    }),
    email: mailAdapter(),
    collections: [...siteComponents, ...sitePageData, newsletterSignups(tablePrefix)],
    plugins: [cwaPlugin(options)],
    bin: commands,
    // Generated types are not used: the plugin serves types declared at run time. Kept out of the tree.
    typescript: { outputFile: path.resolve(dirname, '.data/payload-types.ts'), autoGenerate: false },
    telemetry: false,
  })
}

export default buildSiteConfig()

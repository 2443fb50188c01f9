import { postgresAdapter } from '@payloadcms/db-postgres'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildConfig } from 'payload'
import { siteComponents } from './collections/site/components'
import { newsletterSignups } from './collections/site/forms'
import { sitePageData } from './collections/site/pageData'
import { cwaPlugin } from './plugins/cwa'
import { resolveOptions } from './plugins/cwa/options'
import { payloadSecret } from './src/config/secrets'
import { siteOptions } from './src/config/siteOptions'
import { mailAdapter } from './src/mail/adapter'
import { commands } from './src/commands'
import { migrations } from './migrations'

const dirname = path.dirname(fileURLToPath(import.meta.url))
const options = siteOptions()
const { tablePrefix } = resolveOptions(options)

/** The reference site: the cwa plugin plus the reference deployment's types. */
export default buildConfig({
  secret: payloadSecret(),
  serverURL: process.env.SERVER_URL ?? '',
  routes: { admin: '/admin', api: '/api' },
  admin: {
    user: 'users',
    importMap: { baseDir: dirname },
    meta: { titleSuffix: ' · payload-cwa' },
  },
  editor: lexicalEditor(),
  db: postgresAdapter({
    pool: { connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/cwa' },
    idType: 'uuid',
    push: false,
    migrationDir: path.resolve(dirname, 'migrations'),
    prodMigrations: migrations,
  }),
  email: mailAdapter(),
  collections: [...siteComponents, ...sitePageData, newsletterSignups(tablePrefix)],
  plugins: [cwaPlugin(options)],
  bin: commands,
  typescript: { outputFile: path.resolve(dirname, 'payload-types.ts'), autoGenerate: false },
  telemetry: false,
})

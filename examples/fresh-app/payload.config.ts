import { postgresAdapter } from '@payloadcms/db-postgres'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildConfig } from 'payload'
import { cwaPlugin } from 'payload-cwa'
import sharp from 'sharp'
import { Quote } from './collections/Quote'

const dirname = path.dirname(fileURLToPath(import.meta.url))

export default buildConfig({
  secret: process.env.PAYLOAD_SECRET || '',
  admin: { importMap: { baseDir: dirname } },
  editor: lexicalEditor(),
  // The plugin's resources use UUIDs; the schema comes from migrations (`payload migrate:create`, `payload migrate`).
  db: postgresAdapter({
    pool: { connectionString: process.env.DATABASE_URL },
    idType: 'uuid',
    push: false,
    migrationDir: path.resolve(dirname, 'migrations'),
  }),
  collections: [Quote],
  sharp,
  plugins: [cwaPlugin()],
})

// Payload's blank template's config (PostgreSQL), with what the README and docs/adopting.md add: `idType: 'uuid'`,
// the plugin, the content types in the box and a component type of the app's own (Quote).
import { postgresAdapter } from '@payloadcms/db-postgres'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import path from 'path'
import { buildConfig } from 'payload'
import { cwaPlugin } from 'payload-cwa'
import { article, heading, image, navigationLink, richText } from 'payload-cwa/content'
import sharp from 'sharp'
import { fileURLToPath } from 'url'

import { Media } from './collections/Media'
import { Quote } from './collections/Quote'
import { Users } from './collections/Users'

const filename = fileURLToPath(import.meta.url)
const dirname = path.dirname(filename)

export default buildConfig({
  admin: {
    user: Users.slug,
    importMap: {
      baseDir: path.resolve(dirname),
    },
  },
  collections: [Users, Media, Quote, richText(), image(), heading(), navigationLink(), article()],
  editor: lexicalEditor(),
  secret: process.env.PAYLOAD_SECRET || '',
  typescript: {
    outputFile: path.resolve(dirname, 'payload-types.ts'),
  },
  db: postgresAdapter({
    pool: {
      connectionString: process.env.DATABASE_URI || '',
    },
    idType: 'uuid',
  }),
  sharp,
  // The site's cached pages expire on each write that changes them (src/app/(cwa)/%5Fcwa/revalidate).
  plugins: [
    cwaPlugin({
      httpCache: {
        revalidateUrl: process.env.CWA_REVALIDATE_URL,
        revalidateSecret: process.env.CWA_REVALIDATE_SECRET,
      },
    }),
  ],
})

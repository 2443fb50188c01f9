// Next.js builds and serves only Payload's admin panel (app/(payload)); the
// Express server (src/server/admin.ts) mounts it behind its own routes on one port.
import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  // `next build` would type-check every file tsconfig.json includes (tests,
  // benches, scripts...), and the admin panel is built on the first
  // `npm start`: a type error anywhere must not stop the site from starting.
  // Type checking is `npm run typecheck`'s job.
  typescript: { ignoreBuildErrors: true },
}

export default withPayload(nextConfig)

import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  // `'use cache'` for the site's pages (src/app/(frontend)/[...path]/page.tsx), expired by the API's revalidation.
  experimental: { useCache: true },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })

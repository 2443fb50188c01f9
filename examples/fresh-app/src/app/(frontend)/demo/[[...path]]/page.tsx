/*
 * Pages of another site's API, as a Next.js front end on its own server renders them (docs/front-ends.md): with
 * CWA_DEMO_API_URL set (the reference site's `https://…/_api`), /demo/<path> is that site's page at <path>, read
 * over HTTP with payload-cwa/client and rendered with payload-cwa/react. Without it, a 404.
 */
import { notFound, permanentRedirect } from 'next/navigation'
import { createCwaClient } from 'payload-cwa/client'
import { CwaPage, cwaComponents } from 'payload-cwa/react'

export const dynamic = 'force-dynamic'

export default async function DemoPage({ params }: { params: Promise<{ path?: string[] }> }) {
  const apiUrl = process.env.CWA_DEMO_API_URL
  if (!apiUrl) notFound()
  const { path = [] } = await params
  const page = await createCwaClient({ apiUrl }).page(`/${path.map(encodeURIComponent).join('/')}`)
  if (page.kind === 'redirect') permanentRedirect(`/demo${page.location}`)
  if (page.kind === 'error') throw new Error(page.error.message)
  if (page.kind !== 'page') notFound()
  return <CwaPage page={page} components={cwaComponents} />
}

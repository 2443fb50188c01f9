/*
 * Every page of the site by its route, as docs/front-ends.md has it: resolved with payload-cwa/client through the
 * API's handler in this process (no socket), rendered with payload-cwa/react.
 */
import config from '@payload-config'
import { headers } from 'next/headers'
import { notFound, permanentRedirect } from 'next/navigation'
import { createCwaHandler } from 'payload-cwa'
import { createCwaClient } from 'payload-cwa/client'
import { CwaPage, cwaComponents } from 'payload-cwa/react'

export const dynamic = 'force-dynamic'

const handler = createCwaHandler({ config })

export default async function Page({ params }: { params: Promise<{ path: string[] }> }) {
  const { path } = await params
  const incoming = await headers()
  const cwa = createCwaClient({
    apiUrl: `http://${incoming.get('host') ?? 'localhost'}/_api`,
    fetch: (input, init) => handler(new Request(input, init)),
  })
  const page = await cwa.page(`/${path.map(encodeURIComponent).join('/')}`)
  if (page.kind === 'redirect') permanentRedirect(page.location)
  if (page.kind !== 'page') notFound()
  return <CwaPage page={page} components={cwaComponents} />
}

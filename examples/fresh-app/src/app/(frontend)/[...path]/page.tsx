/*
 * Every page of the site by its route, as docs/front-ends.md has it: resolved with payload-cwa/client through the
 * API's handler in this process (no socket), rendered with payload-cwa/react. A page's data is kept in Next.js's
 * cache under the API's cache tags ('use cache', tagCwaPage) until a write changes what it shows: the API's
 * revalidation request (src/app/(cwa)/%5Fcwa/revalidate) expires it at once.
 */
import config from '@payload-config'
import { cacheLife } from 'next/cache'
import { headers } from 'next/headers'
import { notFound, permanentRedirect } from 'next/navigation'
import { createCwaHandler } from 'payload-cwa'
import { createCwaClient } from 'payload-cwa/client'
import { tagCwaPage } from 'payload-cwa/next'
import { CwaPage, cwaComponents } from 'payload-cwa/react'

const handler = createCwaHandler({ config })

/** The published page at a path, cached until the API says it changed. */
async function publishedPage(apiUrl: string, path: string) {
  'use cache'
  cacheLife('max')
  const cwa = createCwaClient({ apiUrl, fetch: (input, init) => handler(new Request(input, init)) })
  const page = await cwa.page(path)
  tagCwaPage(page)
  return page
}

export default async function Page({ params }: { params: Promise<{ path: string[] }> }) {
  const { path } = await params
  const host = (await headers()).get('host') ?? 'localhost'
  const page = await publishedPage(`http://${host}/_api`, `/${path.map(encodeURIComponent).join('/')}`)
  if (page.kind === 'redirect') permanentRedirect(page.location)
  if (page.kind !== 'page') notFound()
  return <CwaPage page={page} components={cwaComponents} />
}

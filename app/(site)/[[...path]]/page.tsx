/*
 * Every page of the website, by its route: resolved through the JSON-LD API's handler in this process (no socket)
 * with payload-cwa/client, rendered with payload-cwa/react. A signed-in editor's cookie is passed on, so an editor
 * sees the drafts the API gives them.
 */
import type { Metadata } from 'next'
import { headers } from 'next/headers'
import { notFound, permanentRedirect } from 'next/navigation'
import { createCwaHandler, getOptions } from 'payload-cwa'
import { createCwaClient, type CwaPageResult } from 'payload-cwa/client'
import { CwaPage, type CwaComponentRenderers, cwaComponents } from 'payload-cwa/react'
import { cache } from 'react'
import type { CwaComponentTypes } from '../../../collections/generated/cwaTypes'
import { loadConfig } from '../../(payload)/loadConfig'
import { FileDownload } from '../FileDownload'

type Args = { params: Promise<{ path?: string[] }> }

// Rendered per request, never prerendered: `next build` needs no database.
export const dynamic = 'force-dynamic'

const handler = createCwaHandler({ config: loadConfig })

// A renderer for every component type of the site (the types `npx payload-cwa cwa:client-types` writes): a type
// added without one fails the type check.
const components: CwaComponentRenderers<CwaComponentTypes> = { ...cwaComponents, FileDownload }

/** One resolution per request, shared by the metadata and the page. */
const resolve = cache(async (path: string): Promise<CwaPageResult> => {
  const incoming = await headers()
  // The API's own rule for the URLs it writes (images, form actions): SERVER_URL when set, else the Host header.
  // Never X-Forwarded-Host: anyone can send it, and the page would then point its images and its form elsewhere.
  const origin = process.env.SERVER_URL?.replace(/\/+$/, '') || `http://${incoming.get('host') ?? 'localhost'}`
  const { apiPrefix } = getOptions(await loadConfig())
  const cwa = createCwaClient({
    apiUrl: `${origin}${apiPrefix}`,
    fetch: (input, init) => handler(new Request(input, init)),
    headers: (): Record<string, string> => {
      const cookie = incoming.get('cookie')
      return cookie ? { cookie } : {}
    },
  })
  return cwa.page(path)
})

const pathOf = async (params: Args['params']) => `/${((await params).path ?? []).map(encodeURIComponent).join('/')}`

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const result = await resolve(await pathOf(params))
  if (result.kind === 'not-found') notFound()
  if (result.kind !== 'page') return {}
  const title = result.pageData?.title ?? result.page.title ?? undefined
  const description = result.pageData?.metaDescription ?? result.page.metaDescription ?? undefined
  return { title, description }
}

export default async function SitePage({ params }: Args) {
  const path = await pathOf(params)
  const result = await resolve(path)
  if (result.kind === 'redirect') permanentRedirect(result.location)
  if (result.kind === 'not-found') notFound()
  if (result.kind === 'error') throw new Error(`${path}: ${result.error.message}`)
  return <CwaPage page={result} components={components} />
}

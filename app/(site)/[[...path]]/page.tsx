/*
 * Every page of the website, by its route: resolved through the JSON-LD API's handler in this process (no socket)
 * with payload-cwa/client, rendered with payload-cwa/react. Everyone gets the published site; in draft mode (a
 * preview opened from the admin panel, /_preview) the preview token reads the drafts with the editor's rights. The
 * page refreshes itself when the hub announces a change to what it shows, and after each save in Live Preview.
 */
import type { Metadata } from 'next'
import { draftMode, headers } from 'next/headers'
import { permanentRedirect } from 'next/navigation'
import { createCwaClient, type CwaPageResult } from 'payload-cwa/client'
import { cwaPreviewHeaders } from 'payload-cwa/next'
import { CwaLiveRefresh } from 'payload-cwa/next/client'
import { CwaPage, type CwaComponentRenderers, cwaComponents } from 'payload-cwa/react'
import { cache } from 'react'
import type { CwaComponentTypes } from '../../../collections/generated/cwaTypes'
import { FileDownload } from '../FileDownload'
import NotFound from './not-found'
import { noteRender } from '../renderContext'
import { apiUrlFor, inProcessFetch } from '../siteApi'

type Args = { params: Promise<{ path?: string[] }> }

// Rendered per request from the API's read model (exact on every instance), never prerendered: `next build` needs no database.
export const dynamic = 'force-dynamic'

// A renderer for every component type of the site (the types `npx payload-cwa cwa:client-types` writes): a type
// added without one fails the type check.
const components: CwaComponentRenderers<CwaComponentTypes> = { ...cwaComponents, FileDownload }

/** One resolution per request, shared by the metadata and the page. */
const resolve = cache(async (path: string): Promise<CwaPageResult> => {
  const incoming = await headers()
  // No cookie is passed on: a signed-in editor sees the published site too, and drafts in a preview.
  const cwa = createCwaClient({
    apiUrl: await apiUrlFor(incoming.get('host')),
    fetch: inProcessFetch,
    headers: await cwaPreviewHeaders(),
  })
  return cwa.page(path)
})

const pathOf = async (params: Args['params']) => `/${((await params).path ?? []).map(encodeURIComponent).join('/')}`

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const result = await resolve(await pathOf(params))
  if (result.kind === 'not-found') return { title: 'Page not found' }
  if (result.kind !== 'page') return {}
  const title = result.pageData?.title ?? result.page.title ?? undefined
  const description = result.pageData?.metaDescription ?? result.page.metaDescription ?? undefined
  return { title, description }
}

export default async function SitePage({ params }: Args) {
  const path = await pathOf(params)
  const result = await resolve(path)
  const { isEnabled: previewing } = await draftMode()
  // A visitor's page is kept in the read model under the tags of what it read (src/server/websitePages.ts).
  // A path with no route: the not-found page as this page, sent with 404 by the server (src/server/websitePages.ts).
  // Not Next.js's notFound(): with two root layouts it sends an empty shell that only JavaScript fills
  // (vercel/next.js#59180), and a 404 is then blank without it.
  const status = result.kind === 'not-found' ? 404 : undefined
  noteRender(result.kind === 'error' ? [] : result.tags, !previewing && result.kind !== 'error', status)
  if (result.kind === 'redirect') permanentRedirect(result.location)
  if (result.kind === 'not-found') return <NotFound />
  if (result.kind === 'error') throw new Error(`${path}: ${result.error.message}`)
  return (
    <>
      {previewing && (
        <aside className="preview-bar" aria-label="Preview">
          Preview: drafts are shown. <a href={`/_preview/exit?path=${encodeURIComponent(path)}`}>Leave the preview</a>
        </aside>
      )}
      <CwaPage page={result} components={components} editor={previewing} />
      <CwaLiveRefresh hub={result.hub} resources={Object.keys(result.resources).sort()} />
    </>
  )
}

/* Payload admin panel: every /admin/* view (Payload 3 template). */
import { generatePageMetadata, RootPage } from '@payloadcms/next/views'
import type { Metadata } from 'next'

import { loadConfig } from '../../loadConfig'
import { importMap } from '../importMap'

type Args = {
  params: Promise<{
    segments: string[]
  }>
  searchParams: Promise<{
    [key: string]: string | string[]
  }>
}

// Rendered per request, never prerendered: `next build` needs no database.
export const dynamic = 'force-dynamic'

export const generateMetadata = ({ params, searchParams }: Args): Promise<Metadata> =>
  generatePageMetadata({ config: loadConfig(), params, searchParams })

const Page = ({ params, searchParams }: Args) => RootPage({ config: loadConfig(), params, searchParams, importMap })

export default Page

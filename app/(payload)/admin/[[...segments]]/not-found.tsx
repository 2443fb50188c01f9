/* Payload admin panel: the not-found view under /admin (Payload 3 template). */
import { generatePageMetadata, NotFoundPage } from '@payloadcms/next/views'
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

export const generateMetadata = ({ params, searchParams }: Args): Promise<Metadata> =>
  generatePageMetadata({ config: loadConfig(), params, searchParams })

const NotFound = ({ params, searchParams }: Args) =>
  NotFoundPage({ config: loadConfig(), params, searchParams, importMap })

export default NotFound

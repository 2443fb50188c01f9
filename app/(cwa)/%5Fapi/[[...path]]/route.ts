/*
 * The JSON-LD API as a Next.js route handler: the way a Payload app on the
 * standard Next.js template serves it (`%5F` is how Next.js spells a folder
 * name that starts with an underscore, `_api`: a plain `_api` folder would be
 * private). The reference site's own server (Express) answers /_api before
 * Next.js sees it; `next start` alone serves the API from here.
 */
import { createCwaNextHandler } from 'payload-cwa'
import { loadConfig } from '../../../(payload)/loadConfig'

export const { GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS } = createCwaNextHandler(loadConfig)

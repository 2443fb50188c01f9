/*
 * payload-cwa's JSON-LD API. The folder is the API prefix (`apiPrefix`, default `/_api`): Next.js treats a folder
 * whose name starts with `_` as private, so the underscore is spelled `%5F`.
 */
import config from '@payload-config'
import { createCwaNextHandler } from 'payload-cwa/next'

export const { GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS } = createCwaNextHandler(config)

import { cacheTag } from 'next/cache.js'
import type { CwaPageResult } from '../client/index.js'

/** Next.js's limits: a tag's length, and tags per call. */
const MAX_TAG_LENGTH = 256
const TAGS_PER_CALL = 128

/**
 * The Next.js cache tags of a resolved page: the API's cache tags of every answer it read (the resources it shows,
 * its route's path) and the tag of every rendered page (`htmlTag`, the API's `httpCache.renderedHtmlTag`, default
 * `cwa-html`), which the admin's "purge rendered pages" drops. Tags longer than Next.js takes are left out (a path
 * tag of a very long path): such a page still expires with its resources.
 */
export function cwaCacheTags(page: CwaPageResult, htmlTag = 'cwa-html'): string[] {
  const tags = page.kind === 'error' ? [] : page.tags
  return [...new Set([htmlTag, ...tags])].filter((tag) => tag.length <= MAX_TAG_LENGTH)
}

/**
 * Tags the `'use cache'` function that resolved the page with cwaCacheTags, so the API's revalidation
 * (createCwaRevalidateRoute) expires it when a write changes what it shows. Call it inside that function:
 *
 *   async function cachedPage(path: string) {
 *     'use cache'
 *     const page = await cwa.page(path)
 *     tagCwaPage(page)
 *     return page
 *   }
 */
export function tagCwaPage(page: CwaPageResult, htmlTag?: string): void {
  const tags = cwaCacheTags(page, htmlTag)
  for (let start = 0; start < tags.length; start += TAGS_PER_CALL) cacheTag(...tags.slice(start, start + TAGS_PER_CALL))
}

/*
 * What a page's render tells the server that kept it (src/server/websitePages.ts, the same process, reached by a
 * registered symbol: this app is a bundle of its own): the API's cache tags of what it read, or that it may not be
 * kept (a preview, an error). Outside that server (next start, a test) it does nothing.
 */
import type { AsyncLocalStorage } from 'node:async_hooks'

interface RenderNotes {
  tags: string[]
  keep: boolean
  status?: number
}

const CONTEXT = Symbol.for('payload-cwa.reference-site.render')

/** `status`: the page's own (a 404 rendered as a page: the server sends it with that status). */
export function noteRender(tags: readonly string[], keep = true, status?: number): void {
  const renders = (globalThis as Record<symbol, unknown>)[CONTEXT] as AsyncLocalStorage<RenderNotes> | undefined
  const notes = renders?.getStore()
  if (!notes) return
  notes.tags.push(...tags)
  if (!keep) notes.keep = false
  if (status !== undefined) notes.status = status
}

import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import type { ResolvedHttpCache } from './options.js'

/**
 * Who invalidates the shared HTTP cache:
 * - `none`: there is none; every purge succeeds and does nothing;
 * - `varnish`: `PURGE` requests with the tags in `xkey-purge` (an xkey soft
 *   purge: the VCL in docs/http-cache.md), `BAN` of everything for a full flush.
 * A purge that fails throws a PurgeFailed naming the reason.
 */
export interface Purger {
  readonly name: ResolvedHttpCache['purger']
  /** Purges every cached response tagged with one of the tags. */
  purgeTags(tags: readonly string[]): Promise<void>
  /** Flushes every cached response; false when this purger cannot (nothing is done). */
  flushAll(): Promise<boolean>
}

export class PurgeFailed extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'PurgeFailed'
  }
}

const noPurger: Purger = {
  name: 'none',
  async purgeTags() {},
  async flushAll() {
    return false
  },
}

/** Tags per PURGE request: Varnish's default request header limit is 8 KiB. */
const MAX_HEADER = 6000

function batches(tags: readonly string[]): string[] {
  const out: string[] = []
  let current = ''
  for (const tag of tags) {
    if (current && current.length + tag.length + 1 > MAX_HEADER) {
      out.push(current)
      current = ''
    }
    current = current ? `${current} ${tag}` : tag
  }
  if (current) out.push(current)
  return out
}

function varnishPurger(url: string, timeout: number): Purger {
  const send = async (method: 'PURGE' | 'BAN', headers: Record<string, string>) => {
    let response: Response
    try {
      response = await fetch(url, { method, headers, signal: AbortSignal.timeout(timeout) })
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new PurgeFailed(
        `Varnish at ${url} could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      )
    }
    await response.arrayBuffer().catch(() => undefined)
    if (!response.ok)
      throw new PurgeFailed(`Varnish at ${url} answered ${method} with ${response.status} ${response.statusText}`)
  }
  return {
    name: 'varnish',
    async purgeTags(tags) {
      for (const batch of batches(tags)) await send('PURGE', { 'xkey-purge': batch })
    },
    async flushAll() {
      await send('BAN', {})
      return true
    },
  }
}

/** The purger of a Payload instance's options. */
export function purgerOf(payload: Payload): Purger {
  const options = getOptions(payload.config).httpCache
  return options.purger === 'varnish' && options.varnishUrl
    ? varnishPurger(options.varnishUrl, options.purgeTimeout)
    : noPurger
}

/** Purges the rendered-HTML tag the front end gives its cached pages; API responses stay. */
export async function purgeRenderedHtml(payload: Payload): Promise<void> {
  await purgerOf(payload).purgeTags([getOptions(payload.config).httpCache.renderedHtmlTag])
}

/** Flushes every cached response (API and rendered HTML) when the purger can; otherwise does nothing. Returns whether it flushed. */
export function purgeHttpCache(payload: Payload): Promise<boolean> {
  return purgerOf(payload).flushAll()
}

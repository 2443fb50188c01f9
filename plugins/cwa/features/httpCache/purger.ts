import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import { PurgeFailed, type Purger } from './purgerTypes.js'
import { revalidationPurger } from './revalidation.js'

export { PurgeFailed, type Purger } from './purgerTypes.js'

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

/** Every purger at once: each gets the purge; the first failure is thrown once all have answered. */
function allOf(purgers: Purger[]): Purger {
  const each = async <T>(work: (purger: Purger) => Promise<T>): Promise<T[]> => {
    const settled = await Promise.allSettled(purgers.map(work))
    const failed = settled.find((result) => result.status === 'rejected')
    if (failed) throw failed.reason
    return settled.map((result) => (result as PromiseFulfilledResult<T>).value)
  }
  return {
    name: purgers.map((purger) => purger.name).join('+'),
    async purgeTags(tags) {
      await each((purger) => purger.purgeTags(tags))
    },
    async flushAll() {
      return (await each((purger) => purger.flushAll())).some(Boolean)
    },
  }
}

/** The purger of a Payload instance's options: Varnish, a front end's revalidation route, both or none. */
export function purgerOf(payload: Payload): Purger {
  const options = getOptions(payload.config).httpCache
  const purgers: Purger[] = []
  if (options.purger === 'varnish' && options.varnishUrl)
    purgers.push(varnishPurger(options.varnishUrl, options.purgeTimeout))
  if (options.revalidateUrl && options.revalidateSecret)
    purgers.push(
      revalidationPurger(
        options.revalidateUrl,
        options.revalidateSecret,
        options.purgeTimeout,
        options.renderedHtmlTag,
      ),
    )
  return purgers.length === 0 ? noPurger : purgers.length === 1 ? purgers[0]! : allOf(purgers)
}

/** Purges the rendered-HTML tag the front end gives its cached pages; API responses stay. */
export async function purgeRenderedHtml(payload: Payload): Promise<void> {
  await purgerOf(payload).purgeTags([getOptions(payload.config).httpCache.renderedHtmlTag])
}

/** Flushes every cached response (API and rendered HTML) when the purger can; otherwise does nothing. Returns whether it flushed. */
export function purgeHttpCache(payload: Payload): Promise<boolean> {
  return purgerOf(payload).flushAll()
}

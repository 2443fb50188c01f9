import { createHmac } from 'node:crypto'
import { PurgeFailed, type Purger } from './purgerTypes.js'

/**
 * A front end's revalidation route as a purger: the tags of each purge POSTed as `{"tags": [...]}`, signed so the
 * route can tell the API sent them. The signature header is `cwa-signature: t=<unix seconds>,v1=<hex>`, an
 * HMAC-SHA256 with the shared secret over `<t>.<body>` (the timestamp bounds a replay; payload-cwa/next's
 * createCwaRevalidateRoute checks both). A flush sends the tag every cached page of the front end carries.
 */
export function signRevalidation(secret: string, body: string, now = Date.now()): string {
  const t = Math.floor(now / 1000)
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`
}

/** Tags per request: a body stays small for any front end's limits. */
const BATCH = 500

export function revalidationPurger(url: string, secret: string, timeout: number, htmlTag: string): Purger {
  const send = async (tags: readonly string[]) => {
    const body = JSON.stringify({ tags })
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cwa-signature': signRevalidation(secret, body) },
        body,
        signal: AbortSignal.timeout(timeout),
      })
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new PurgeFailed(
        `The front end's revalidation route ${url} could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      )
    }
    await response.arrayBuffer().catch(() => undefined)
    if (!response.ok)
      throw new PurgeFailed(
        `The front end's revalidation route ${url} answered ${response.status} ${response.statusText}`,
      )
  }
  return {
    name: 'revalidate',
    async purgeTags(tags) {
      for (let start = 0; start < tags.length; start += BATCH) await send(tags.slice(start, start + BATCH))
    },
    async flushAll() {
      await send([htmlTag])
      return true
    },
  }
}

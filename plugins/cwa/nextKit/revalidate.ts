import { revalidateTag } from 'next/cache.js'

export interface CwaRevalidateRouteOptions {
  /** The API's `httpCache.revalidateSecret` (CWA_REVALIDATE_SECRET): without one every request is refused. */
  secret: string | undefined
  /** How old a signed request may be, in seconds (default 300): a request captured on the way is replayed at most that long. */
  maxAgeSeconds?: number
}

/** A body is a list of tags: anything larger is not the API's. */
const MAX_BODY = 1024 * 1024

const encoder = new TextEncoder()

function hexBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

/**
 * Whether `header` (`t=<unix seconds>,v1=<hex>`) signs `body` with the secret: an HMAC-SHA256 over `<t>.<body>`,
 * compared in constant time (Web Crypto's verify), and `t` within `maxAgeSeconds` of now.
 */
export async function verifyRevalidation(
  secret: string,
  header: string | null,
  body: string,
  maxAgeSeconds = 300,
  now = Date.now(),
): Promise<boolean> {
  const parts = new Map((header ?? '').split(',').map((part) => part.trim().split('=', 2) as [string, string]))
  const t = Number(parts.get('t'))
  const signature = hexBytes(parts.get('v1') ?? '')
  if (!Number.isInteger(t) || !signature || Math.abs(now / 1000 - t) > maxAgeSeconds) return false
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ])
  return crypto.subtle.verify('HMAC', key, signature, encoder.encode(`${t}.${body}`))
}

const answer = (status: number, detail?: string) =>
  detail ? Response.json({ detail }, { status }) : new Response(null, { status })

/**
 * The route the API calls after each write (its `httpCache.revalidateUrl`): `{"tags": [...]}`, signed. Every page
 * cached with one of the tags (tagCwaPage) expires at once, so the next request renders the change. In
 * `app/(cwa)/%5Fcwa/revalidate/route.ts`:
 *
 *   export const { POST } = createCwaRevalidateRoute({ secret: process.env.CWA_REVALIDATE_SECRET })
 */
export function createCwaRevalidateRoute(options: CwaRevalidateRouteOptions): {
  POST: (request: Request) => Promise<Response>
} {
  return {
    async POST(request) {
      if (!options.secret || options.secret.length < 32)
        return answer(503, 'No revalidation secret (32 characters at least) is configured.')
      if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY) return answer(413, 'The body is too large.')
      const body = await request.text()
      if (body.length > MAX_BODY) return answer(413, 'The body is too large.')
      const signed = await verifyRevalidation(
        options.secret,
        request.headers.get('cwa-signature'),
        body,
        options.maxAgeSeconds,
      )
      if (!signed) return answer(401, 'The request is not signed with the revalidation secret, or it is too old.')
      let tags: unknown
      try {
        tags = (JSON.parse(body) as { tags?: unknown }).tags
      } catch {
        return answer(400, 'The body must be JSON: {"tags": [...]}.')
      }
      if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string'))
        return answer(400, 'The body must be JSON: {"tags": [...]}.')
      // Expired at once: the next request renders anew instead of being served the stale page once more.
      for (const tag of new Set(tags)) revalidateTag(tag, { expire: 0 })
      return answer(204)
    },
  }
}

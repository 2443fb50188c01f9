import { cookies, draftMode } from 'next/headers.js'

/** The cookie holding an editor's preview token on the front end (HttpOnly: no script reads it). */
export const CWA_PREVIEW_COOKIE = 'cwa_preview'

export interface CwaPreviewRouteOptions {
  /** The API with its prefix (`https://example.com/_api`), or a function of the request giving it. */
  apiUrl: string | ((request: Request) => string | Promise<string>)
  /** The `fetch` to call (an app serving the API in the same process passes its handler). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>
  cookieName?: string
}

/** A path of this site (not `//host` or `/\host`, which browsers read as another origin). */
const sitePath = (path: unknown): string | null =>
  typeof path === 'string' && /^\/(?![/\\])/.test(path) && !/[\s\\]/.test(path) ? path : null

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * A redirect to a path of this site. Not next/navigation's redirect(): imported as `next/navigation.js` (what this
 * package's Node resolution needs) a route handler would load the client's router instead of the server's.
 */
const redirectTo = (path: string) =>
  new Response(null, { status: 307, headers: { location: path, 'cache-control': 'no-store' } })

/** A small page saying why the preview did not open (shown in Live Preview's frame). */
function refusal(status: number, reason: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preview</title></head><body><main><h1>No preview</h1><p>${escapeHtml(reason)}</p></main></body></html>`
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  })
}

/**
 * The front end's preview route (the API's `previewPath`): the admin panel's Live Preview opens
 * `<previewPath>?path=…&token=…`; the route exchanges the one-minute token with the API (`POST {prefix}/_/preview`)
 * for a token that reads drafts with the editor's rights, keeps it in an HttpOnly cookie, turns Next.js's draft
 * mode on and redirects to the path the token names. In `app/(cwa)/%5Fpreview/route.ts`:
 *
 *   export const { GET } = createCwaPreviewRoute({ apiUrl: process.env.CWA_API_URL! })
 */
export function createCwaPreviewRoute(options: CwaPreviewRouteOptions): {
  GET: (request: Request) => Promise<Response>
} {
  return {
    async GET(request) {
      const token = new URL(request.url).searchParams.get('token')
      if (!token) return refusal(400, 'This preview link holds no token: open the preview from the admin panel.')
      const apiUrl = typeof options.apiUrl === 'function' ? await options.apiUrl(request) : options.apiUrl
      let answer: Response
      try {
        answer = await (options.fetch ?? fetch)(`${apiUrl.replace(/\/+$/, '')}/_/preview`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/ld+json' },
          body: JSON.stringify({ token }),
          cache: 'no-store',
        })
      } catch {
        return refusal(502, 'The API could not be reached to open the preview.')
      }
      const body = (await answer.json().catch(() => ({}))) as {
        token?: unknown
        path?: unknown
        expiresAt?: unknown
        detail?: unknown
      }
      if (!answer.ok || typeof body.token !== 'string')
        return refusal(
          answer.ok ? 502 : answer.status,
          typeof body.detail === 'string' ? body.detail : 'The preview link was refused.',
        )
      const path = sitePath(body.path) ?? '/'
      const expires = typeof body.expiresAt === 'string' ? new Date(body.expiresAt) : undefined
      ;(await draftMode()).enable()
      ;(await cookies()).set(options.cookieName ?? CWA_PREVIEW_COOKIE, body.token, {
        httpOnly: true,
        secure: true,
        // Live Preview shows the front end in a frame of the admin panel, which may be another site.
        sameSite: 'none',
        path: '/',
        ...(expires && !Number.isNaN(expires.getTime()) ? { expires } : {}),
      })
      return redirectTo(path)
    },
  }
}

/** Ends a preview: draft mode off, the token's cookie gone, back to `?path=` (or the home page). */
export function createCwaPreviewExitRoute(options: { cookieName?: string } = {}): {
  GET: (request: Request) => Promise<Response>
} {
  return {
    async GET(request) {
      ;(await draftMode()).disable()
      ;(await cookies()).delete(options.cookieName ?? CWA_PREVIEW_COOKIE)
      return redirectTo(sitePath(new URL(request.url).searchParams.get('path')) ?? '/')
    },
  }
}

/** Whether a JWT's `exp` has passed (read, not verified: the API verifies it). */
function expired(token: string): boolean {
  try {
    const claims = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown }
    return typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()
  } catch {
    return true
  }
}

/**
 * The headers that make the client's reads an editor's preview, in a server component: `Authorization: Bearer
 * <preview token>` while draft mode is on and the token lives; none otherwise (the published site).
 */
export async function cwaPreviewHeaders(cookieName: string = CWA_PREVIEW_COOKIE): Promise<Record<string, string>> {
  if (!(await draftMode()).isEnabled) return {}
  const token = (await cookies()).get(cookieName)?.value
  return token && !expired(token) ? { authorization: `Bearer ${token}` } : {}
}

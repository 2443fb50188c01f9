import { crossSiteWriteRefusal } from '../crossSite.js'
import { forbidden } from '../errors.js'
import { allowsOrigin, authenticateCaller } from '../extensions/requestHooks.js'
import type { IncomingApiRequest } from './messages.js'
import type { ApiRuntime } from './runtime.js'

/**
 * Who is calling, and from where: a write sent by a page of another site is
 * refused first, then the extensions' authenticate hooks name the caller.
 */

/** Whether an extension names this origin as one of the site's own front ends. */
export function originAllowed(runtime: ApiRuntime, origin: string): boolean {
  return allowsOrigin(runtime.extensions, origin, runtime.payload)
}

/** A state-changing request sent by a page of another site (CSRF): 403 (see crossSite.ts). */
export function refuseCrossSiteWrite(runtime: ApiRuntime, incoming: IncomingApiRequest): void {
  const refusal = crossSiteWriteRefusal(incoming.method, incoming.headers, runtime.payload, (origin) =>
    originAllowed(runtime, origin),
  )
  if (refusal) throw forbidden(refusal)
}

/** The caller, as the first authenticate hook with an answer names it (null: anonymous). */
export async function authenticate(
  runtime: ApiRuntime,
  incoming: IncomingApiRequest,
  path: string,
  responseHeaders: Headers,
) {
  return authenticateCaller(runtime.extensions, {
    payload: runtime.payload,
    method: incoming.method,
    path,
    headers: incoming.headers,
    responseHeaders,
  })
}

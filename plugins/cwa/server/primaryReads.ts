import type { Payload } from 'payload'
import { getOptions } from '../core/registry.js'
import { type CredentialNames, needsPrimary, onPrimary, replicatedDatabase } from '../core/replicas/index.js'

/**
 * With read replicas, a request that writes or carries credentials reads
 * from the primary (core/replicas): the server adapters decide it from the
 * method and headers before anything else runs. Without replicas this is a
 * no-op.
 */

/** The cookies that make a request signed in: the API's JWT and refresh cookies, Payload's token cookie. */
function credentialNames(payload: Payload): CredentialNames {
  const session = getOptions(payload.config).session
  return {
    cookies: [session.cookieName, session.refreshCookieName, `${payload.config.cookiePrefix ?? 'payload'}-token`],
  }
}

/** Runs `fn` with its reads on the primary when the request needs it (and the adapter has replicas). */
export function withRequestReads<T>(
  payload: Payload,
  method: string,
  header: (name: string) => string | null | undefined,
  fn: () => T,
): T {
  if (!replicatedDatabase(payload) || !needsPrimary(method, header, credentialNames(payload))) return fn()
  return onPrimary(fn)
}

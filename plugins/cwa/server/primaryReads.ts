import type { Payload } from 'payload'
import { type CredentialNames, needsPrimary, onPrimary, replicatedDatabase } from '../core/replicas/index.js'
import { credentialCookieNames } from '../session/index.js'

/**
 * With read replicas, a request that writes or carries credentials reads
 * from the primary (core/replicas): the server adapters decide it from the
 * method and headers before anything else runs. Without replicas this is a
 * no-op.
 */

function credentialNames(payload: Payload): CredentialNames {
  return { cookies: credentialCookieNames(payload) }
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

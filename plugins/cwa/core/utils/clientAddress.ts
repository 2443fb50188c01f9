/**
 * The caller's network address, as the server adapter determined it: the
 * Express adapter from `req.ip` (X-Forwarded-For is believed only from the
 * proxies `trust proxy` names: TRUST_PROXY, default loopback), the Fetch
 * handler from the last X-Forwarded-For entry (the one the nearest proxy,
 * or Next.js itself, added). The adapters overwrite this header on every
 * request, so a client cannot choose it. Throttles key on it.
 */
export const CLIENT_ADDRESS_HEADER = 'x-cwa-client-address'

/**
 * The address of a request as Node and Express see it: Express's `req.ip`
 * (X-Forwarded-For believed only from the proxies of `trust proxy`), else
 * the socket's peer. The Express adapter puts it in CLIENT_ADDRESS_HEADER;
 * the embedded Mercure hub keys its per-client share on it.
 */
export function nodeClientAddress(req: { ip?: string; socket?: { remoteAddress?: string } }): string | undefined {
  return req.ip ?? req.socket?.remoteAddress
}

/** The last entry of an X-Forwarded-For header (the address the nearest proxy saw), if any. */
export function lastForwardedFor(value: string | null | undefined): string | undefined {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  return entries[entries.length - 1]
}

/** The client address set by the adapter; 'unknown' when none was (all such callers share one throttle). */
export function clientAddress(headers: Headers | null | undefined): string {
  const value = headers?.get(CLIENT_ADDRESS_HEADER)?.trim()
  return value ? value.slice(0, 64) : 'unknown'
}

/** Scheme and host of a request (`https://example.com`): the base of absolute IRIs and links. */
export function baseUrlOf(url: URL): string {
  return `${url.protocol}//${url.host || 'localhost'}`
}

/**
 * The origin of the absolute URLs an answer carries (the docs `Link`, file
 * URLs, the sitemap): Payload's `serverURL` (SERVER_URL) when set, else the
 * request's own. Never the Host header once a public URL is configured: it
 * is the client's to choose, and would poison a shared cache.
 */
export function publicBaseUrl(serverURL: string | undefined, url: URL): string {
  const configured = serverURL?.trim().replace(/\/+$/, '')
  return configured || baseUrlOf(url)
}

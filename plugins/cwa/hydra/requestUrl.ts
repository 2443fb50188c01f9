/** Scheme and host of a request (`https://example.com`): the base of absolute IRIs and links. */
export function baseUrlOf(url: URL): string {
  return `${url.protocol}//${url.host || 'localhost'}`
}

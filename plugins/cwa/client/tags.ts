/**
 * What a page's answers say about keeping it: the cache tags the API lists on each answer (the resources it holds,
 * the same names the HTTP cache and the read model purge after a write), and the Mercure hub it announces.
 */

/**
 * The tags of a path's resolution to a route, as the API's routes feature names them (features/routes/pathTags.ts;
 * a test holds the two equal): a route created, moved or deleted at the path drops them. A not-found page carries
 * them, so the route that later answers the path replaces it.
 */
export const routePathTags = (path: string): string[] => [
  `cwa:route-path:${encodeURIComponent(path)}`,
  'cwa:routes:paths',
]

/** The tags of one answer's tag header (space separated). */
export function tagsOfHeader(headers: Headers, header: string): string[] {
  return (headers.get(header) ?? '').split(/\s+/).filter(Boolean)
}

/** The hub's URL of an answer's `Link: <…>; rel="mercure"`, else null. */
export function hubOfHeaders(headers: Headers): string | null {
  for (const link of (headers.get('link') ?? '').split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]+)>(.*)$/.exec(link)
    if (match && /;\s*rel\s*=\s*"?mercure"?\s*(;|$)/i.test(match[2]!)) return match[1]!
  }
  return null
}

import type { CwaError } from './result.js'
import { hubOfHeaders, routePathTags, tagsOfHeader } from './tags.js'
import type { Answer, Transport } from './transport.js'
import type { CwaLayout, CwaPage, CwaPageData, CwaResource, CwaRoute } from './types.js'

/** Everything needed to render one route's page, read in as few sequential rounds as the API allows. */
export interface CwaResolvedPage {
  kind: 'page'
  /** The path asked for (the route's own path). */
  path: string
  route: CwaRoute
  /** The page data record the route names (a blog article), rendered through its template page; else null. */
  pageData: CwaPageData | null
  /** The page rendered: the route's page, or the page data's template page. */
  page: CwaPage
  layout: CwaLayout | null
  /** Every resource read, by IRI (requested and served: a draft may be served under its own `@id`). */
  resources: Record<string, CwaResource>
  /** IRIs a resource names that could not be read (a draft the caller may not see): rendered as nothing. */
  unavailable: string[]
  /** How it was read: sequential rounds of requests, and requests in all. */
  reads: { rounds: number; requests: number }
  /**
   * The cache tags of every answer read, the IRIs asked for and the path's own: the names the API purges after a
   * write that changes what this page shows (a cache keeping the page drops it on any of them).
   */
  tags: string[]
  /** The Mercure hub the API announces (`Link: rel="mercure"`), where the page's resources are published; else null. */
  hub: string | null
}

export type CwaPageResult =
  | CwaResolvedPage
  | { kind: 'redirect'; path: string; location: string; tags: string[] }
  | { kind: 'not-found'; path: string; tags: string[] }
  | { kind: 'error'; path: string; error: CwaError }

export interface PageOptions {
  /** Extra headers for this page's reads. */
  headers?: Record<string, string>
}

/** The properties that lead from a resource to what renders inside it (route → page → layout → groups → ...). */
const LINKS = ['pageData', 'page', 'layout', 'componentGroups', 'componentPositions', 'component'] as const

/** The IRIs a resource links to through `LINKS`. */
export function linkedIris(resource: CwaResource): string[] {
  const found: string[] = []
  for (const name of LINKS) {
    // A position's `componentGroup` and a component's `componentPositions` point back up: not followed.
    if (name === 'componentPositions' && resource['@type'] !== 'ComponentGroup') continue
    const value = resource[name]
    if (typeof value === 'string') found.push(value)
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') found.push(item)
  }
  return found
}

/** The routes of a Collection component's members (page data listed on a page): their paths are its links. */
export function memberRoutes(resource: CwaResource): string[] {
  const collection = resource.collection as { member?: unknown } | null | undefined
  if (!collection || !Array.isArray(collection.member)) return []
  return collection.member.flatMap((member: unknown) => {
    const route = member && typeof member === 'object' ? (member as { route?: unknown }).route : undefined
    return typeof route === 'string' ? [route] : []
  })
}

/** The IRIs of a manifest answer: the tree (`{iri, children}`) or the CWA profile's flat list. */
export function manifestIris(body: unknown): string[] {
  const iris: string[] = []
  const visit = (node: unknown) => {
    if (typeof node === 'string') iris.push(node)
    else if (node && typeof node === 'object') {
      const { iri, children } = node as { iri?: unknown; children?: unknown }
      if (typeof iri === 'string') iris.push(iri)
      if (Array.isArray(children)) children.forEach(visit)
    }
  }
  const list = body && typeof body === 'object' ? (body as { resource_iris?: unknown }).resource_iris : undefined
  if (Array.isArray(list)) list.forEach(visit)
  return iris
}

/**
 * Resolves a path to its page. Round 1 reads the route and the route's resource manifest at once; round 2 reads
 * every resource the manifest lists at once; a further round only reads what the manifest left out (none when it
 * answered), and a last one the routes of a Collection component's members (its links), when the page lists any. Every read sends `path`, so positions bound to page data resolve to this page's record.
 */
export async function resolvePage(
  transport: Transport,
  rawPath: string,
  options: PageOptions = {},
): Promise<CwaPageResult> {
  const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`
  const headers = { ...options.headers, path }
  const encoded = encodeURIComponent(path)
  const [routeAnswer, manifestAnswer] = await Promise.all([
    transport.request<CwaRoute>('GET', `/_/routes/${encoded}`, { headers }),
    transport.request<unknown>('GET', `/_/resource_manifest/${encoded}`, { headers }),
  ])
  let rounds = 1
  let requests = 2
  const tags = new Set(routePathTags(path))
  let hub: string | null = null
  const note = (answer: Answer<unknown>) => {
    for (const tag of tagsOfHeader(answer.headers, transport.tagHeader)) tags.add(tag)
    hub ??= hubOfHeaders(answer.headers)
  }
  if (!routeAnswer.ok) {
    const { error } = routeAnswer
    return error.kind === 'http' && error.status === 404
      ? { kind: 'not-found', path, tags: [...tags] }
      : { kind: 'error', path, error }
  }
  note(routeAnswer.value)
  const route = routeAnswer.value.body
  tags.add(route['@id'])
  if (typeof route.redirectPath === 'string' && route.redirectPath)
    return { kind: 'redirect', path, location: route.redirectPath, tags: [...tags] }

  const resources: Record<string, CwaResource> = { [route['@id']]: route }
  const unavailable = new Set<string>()
  const read = async (iris: string[]) => {
    const wanted = [...new Set(iris)].filter((iri) => !(iri in resources) && !unavailable.has(iri))
    if (wanted.length === 0) return false
    rounds++
    requests += wanted.length
    await Promise.all(
      wanted.map(async (iri) => {
        // Asked for, even when not served: the write that makes it readable (a publication) purges this name.
        tags.add(iri)
        const answer = await transport.request<CwaResource>('GET', iri, { headers })
        if (!answer.ok) {
          unavailable.add(iri)
          return
        }
        note(answer.value)
        resources[iri] = answer.value.body
        resources[answer.value.body['@id']] = answer.value.body
      }),
    )
    return true
  }
  // A manifest that failed only costs rounds: the walk below reads the same resources level by level.
  if (manifestAnswer.ok) {
    note(manifestAnswer.value)
    await read(manifestIris(manifestAnswer.value.body))
  }
  for (;;) {
    const missing = Object.values(resources).flatMap(linkedIris)
    if (!(await read(missing))) break
  }
  // A listing's links: the routes of its members, in one more round (a page without a listing makes none).
  await read(Object.values(resources).flatMap(memberRoutes))

  const pageData = route.pageData ? ((resources[route.pageData] as CwaPageData | undefined) ?? null) : null
  const pageIri = route.page ?? pageData?.page
  const page = pageIri ? (resources[pageIri] as CwaPage | undefined) : undefined
  if (!page) {
    const error: CwaError = {
      kind: 'invalid',
      status: 200,
      message: `The route ${path} names no page that can be read`,
    }
    return { kind: 'error', path, error }
  }
  const layout = page.layout ? ((resources[page.layout] as CwaLayout | undefined) ?? null) : null
  return {
    kind: 'page',
    path,
    route,
    pageData,
    page,
    layout,
    resources,
    unavailable: [...unavailable],
    reads: { rounds, requests },
    tags: [...tags],
    hub,
  }
}

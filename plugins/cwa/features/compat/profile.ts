import type { Payload, PayloadRequest } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'
import type { OutputProfile } from '../../hydra/profile.js'

/**
 * The cwa-nuxt profile's output (the `profile` format hook): how the
 * pipeline writes every answer, errors and hub updates included, while it
 * writes it. No handler formats its own IRIs or keys.
 *
 * A route named by its UUID IRI (`/_api/_/routes/<uuid>`) is written
 * path-shaped, exactly as the module requests it (`/_api/_/routes//blog`,
 * home `/_api/_/routes//`), wherever it appears (the paths of the routes
 * the body names are read in one query before writing); collections also
 * carry `hydra:member`, `hydra:totalItems` and `hydra:view` (with
 * `hydra:first`...); errors are `hydra:Error` (violations
 * `ConstraintViolationList`) with `hydra:title` and `hydra:description`;
 * optionally the API prefix is left out of every IRI.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

type Json = unknown

const VIEW_LINKS = ['first', 'last', 'next', 'previous'] as const

/** The hydra:-prefixed keys the module reads, beside the contract's own. */
function hydraKeys(source: Record<string, Json>, out: Record<string, Json>): void {
  // A collection document (not a JSON-LD context or a schema that merely names the keys).
  if (Array.isArray(source.member) && typeof source.totalItems === 'number') {
    out['hydra:member'] = out.member
    out['hydra:totalItems'] = out.totalItems
    if (out.view && typeof out.view === 'object') {
      const view = out.view as Record<string, Json>
      const hydraView: Record<string, Json> = { ...view, '@type': 'hydra:PartialCollectionView' }
      for (const link of VIEW_LINKS) if (link in view) hydraView[`hydra:${link}`] = view[link]
      out['hydra:view'] = hydraView
    }
  }
  if ((source['@type'] === 'Error' || source['@type'] === 'ConstraintViolation') && typeof source.status === 'number') {
    out['@type'] = source['@type'] === 'Error' ? 'hydra:Error' : 'ConstraintViolationList'
    out['hydra:title'] = source.title
    out['hydra:description'] = source.description
  }
}

/** Paths of the routes named by id (as the caller may read them): one query. */
async function routePaths(
  payload: Payload,
  ids: string[],
  req: PayloadRequest | undefined,
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const found = await payload.find({
    collection: 'routes',
    where: { id: { in: ids } },
    depth: 0,
    limit: ids.length,
    pagination: false,
    select: { path: true },
    overrideAccess: false,
    ...(req ? { req } : {}),
  })
  return new Map(
    found.docs.map((doc) => [String((doc as { id: unknown }).id), String((doc as { path?: unknown }).path)]),
  )
}

/** The profile for one answer: it loads the paths of the routes the answer names, then writes it. */
export function compatProfile(
  options: ResolvedCwaOptions,
  payload: Payload,
  req: PayloadRequest | undefined,
): OutputProfile {
  const prefix = options.apiPrefix
  const routeIri = new RegExp(`^${escape(prefix)}/_/routes/(${UUID})$`, 'i')
  const strip = options.compatIrisWithoutPrefix && prefix !== ''
  let paths = new Map<string, string>()
  return {
    async prepare(apiPaths) {
      const ids = new Set<string>()
      for (const text of apiPaths) {
        const match = routeIri.exec(text)
        if (match) ids.add(match[1]!.toLowerCase())
      }
      paths = await routePaths(payload, [...ids], req)
    },
    iri(text) {
      let out = text
      const match = routeIri.exec(text)
      const path = match ? paths.get(match[1]!.toLowerCase()) : undefined
      if (path !== undefined) out = `${prefix}/_/routes/${path}`
      if (strip && out.length < 4096 && !/\s/.test(out) && (out === prefix || out.startsWith(`${prefix}/`)))
        out = out.slice(prefix.length) || '/'
      return out
    },
    node(source, out) {
      hydraKeys(source, out)
      allowedComponentsAsSent(source, out, prefix)
      entrypointAsSent(source, out, prefix)
      formattedFileSize(source, out)
    },
  }
}

const withoutPrefix = (entry: Json, prefix: string): Json =>
  typeof entry === 'string' && entry.startsWith(`${prefix}/`) ? entry.slice(prefix.length) : entry

/**
 * A group's allowedComponents in the form the module sends them, without
 * the API prefix (`/component/navigation_links`): the module compares the
 * list it holds with the one the API answers and writes the group again when
 * they differ, at every signed-in page load (the seed back end answers the
 * strings as sent).
 */
function allowedComponentsAsSent(source: Record<string, Json>, out: Record<string, Json>, prefix: string): void {
  if (source['@type'] !== 'ComponentGroup' || !Array.isArray(source.allowedComponents) || prefix === '') return
  out.allowedComponents = source.allowedComponents.map((entry) => withoutPrefix(entry, prefix))
}

/**
 * The entrypoint's collection IRIs in the same form as a group's
 * allowedComponents (`/component/navigation_links`): the module's "Add
 * component" dialog keeps only the entrypoint's types whose IRI is in the
 * group's list, so the two forms must match (with the prefix on one side the
 * dialog was empty). The module posts to these IRIs below its API URL, with
 * or without the prefix. `@context` and `@id` keep theirs.
 */
function entrypointAsSent(source: Record<string, Json>, out: Record<string, Json>, prefix: string): void {
  if (source['@type'] !== 'Entrypoint' || prefix === '') return
  for (const [key, entry] of Object.entries(out)) if (!key.startsWith('@')) out[key] = withoutPrefix(entry, prefix)
}

const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB']

/** A byte count as the original bundle's media objects carry it: 1000-based, two decimals, SI suffix (`1.44MB`, `512B`). */
export function formatFileSize(bytes: number): string {
  let exponent = 0
  while (exponent < SIZE_UNITS.length - 1 && bytes >= 1000 ** (exponent + 1)) exponent++
  return exponent === 0 ? `${bytes}B` : `${(bytes / 1000 ** exponent).toFixed(2)}${SIZE_UNITS[exponent]}`
}

/** A media object with a fileSize (the original) also carries `formattedFileSize`: the module's upload field shows "Existing Image (<it>)". */
function formattedFileSize(source: Record<string, Json>, out: Record<string, Json>): void {
  if (typeof source.contentUrl !== 'string' || typeof source.fileSize !== 'number' || !('imagineFilter' in source))
    return
  out.formattedFileSize = formatFileSize(source.fileSize)
}

import type { Payload, PayloadRequest } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'

/**
 * The cwa-nuxt profile's input: a path-shaped route IRI (`/_/routes//blog`,
 * with or without the prefix, `/_/routes/%2Fblog` too) in a request body is
 * read as the route's UUID IRI, before any endpoint reads the body. (Its
 * output is written by the pipeline through the profile: profile.ts.)
 */

type Json = unknown

function forEachString(value: Json, fn: (text: string) => void): void {
  if (typeof value === 'string') fn(value)
  else if (Array.isArray(value)) for (const entry of value) forEachString(entry, fn)
  else if (value && typeof value === 'object') for (const entry of Object.values(value)) forEachString(entry, fn)
}

function mapJson(
  value: Json,
  strings: (text: string) => string,
  objects: (source: Record<string, Json>, out: Record<string, Json>) => void,
): Json {
  if (typeof value === 'string') return strings(value)
  if (Array.isArray(value)) return value.map((entry) => mapJson(entry, strings, objects))
  if (value && typeof value === 'object') {
    const source = value as Record<string, Json>
    const out: Record<string, Json> = {}
    for (const [key, entry] of Object.entries(source)) out[key] = mapJson(entry, strings, objects)
    objects(source, out)
    return out
  }
  return value
}

/** A path-shaped route IRI's route path (`/_/routes//blog` → `/blog`), or null. */
export function pathOfRouteIri(text: string, prefix: string): string | null {
  let path = text
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname
    } catch {
      return null
    }
  }
  if (prefix && path.startsWith(`${prefix}/`)) path = path.slice(prefix.length)
  if (!path.startsWith('/_/routes/')) return null
  const rest = path.slice('/_/routes/'.length)
  if (rest.startsWith('/')) return rest
  if (/^%2f/i.test(rest)) {
    try {
      return decodeURIComponent(rest)
    } catch {
      return null
    }
  }
  return null
}

export async function rewriteInput(
  body: Json,
  options: ResolvedCwaOptions,
  payload: Payload,
  req: PayloadRequest,
): Promise<Json> {
  const wanted = new Set<string>()
  forEachString(body, (text) => {
    const path = text.length < 2048 ? pathOfRouteIri(text, options.apiPrefix) : null
    if (path) wanted.add(path)
  })
  if (wanted.size === 0) return body
  const found = await payload.find({
    collection: 'routes',
    where: { path: { in: [...wanted] } },
    depth: 0,
    limit: wanted.size,
    pagination: false,
    select: { path: true },
    overrideAccess: false,
    req,
  })
  const ids = new Map(
    found.docs.map((doc) => [String((doc as { path?: unknown }).path), String((doc as { id: unknown }).id)]),
  )
  const strings = (text: string): string => {
    const path = text.length < 2048 ? pathOfRouteIri(text, options.apiPrefix) : null
    const id = path ? ids.get(path) : undefined
    return id ? `${options.apiPrefix}/_/routes/${id}` : text
  }
  return mapJson(body, strings, () => {})
}

import type { Payload } from 'payload'
import type { HydraContext } from './context.js'

/**
 * How a compatibility profile writes the answers of the API (the `profile`
 * format hook; the cwa-nuxt one is features/compat/profile.ts): while the
 * body is written, never by rewriting finished JSON. The pipeline gives it
 * the IRIs the body names first, so that what it needs to write them (the
 * paths of routes) is loaded in one go, then writes each string and each
 * node through it.
 */
export interface OutputProfile {
  /** Loads what `iri` needs for the strings under the API prefix the body holds (met while it was formatted): once, before writing. */
  prepare?(apiPaths: ReadonlySet<string>): Promise<void>
  /** Writes a string of the body: the profile changes those that are its IRIs (a route by its path, no prefix). */
  iri?(text: string): string
  /**
   * Adds to a node as it is written (the `hydra:` keys of collections and errors...): `source` is the node as
   * formatted, `out` as written (its strings through `iri`), with its keys in their order.
   */
  node?(source: Record<string, unknown>, out: Record<string, unknown>): void
}

/** Whom an answer is written for: the request's context (null for errors and hub updates read without one). */
export interface ProfileScope {
  payload: Payload
  ctx: HydraContext | null
}

/** The strings under the API prefix a body holds, for a body the normalizer did not record (an error, a hub update). */
export function stringsUnder(prefix: string, body: unknown): Set<string> {
  const apiPaths = new Set<string>()
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith(`${prefix}/`)) apiPaths.add(value)
    } else if (Array.isArray(value)) for (const entry of value) visit(entry)
    else if (value && typeof value === 'object') for (const entry of Object.values(value)) visit(entry)
  }
  visit(body)
  return apiPaths
}

/** The body as the profile writes it: every string through `iri`, every node through `node` (a new tree; the body is left as it is). */
export function writeThrough(profile: OutputProfile, value: unknown): unknown {
  if (typeof value === 'string') return profile.iri ? profile.iri(value) : value
  if (Array.isArray(value)) return value.map((entry) => writeThrough(profile, entry))
  if (value && typeof value === 'object') {
    const source = value as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const [key, entry] of Object.entries(source)) out[key] = writeThrough(profile, entry)
    profile.node?.(source, out)
    return out
  }
  return value
}

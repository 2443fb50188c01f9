import type { SanitizedConfig } from 'payload'
import type { HydraExtension } from '../extension.js'
import { componentMetadata } from './componentMetadata.js'

/** Extensions of the format layer itself, run before those features and apps register. */
export const builtInExtensions: HydraExtension[] = [componentMetadata]

const cache = new WeakMap<object, HydraExtension[]>()

/**
 * The format layer's extensions, then the ones cwaPlugin registered on the
 * config (config.custom.cwa.extensions: the features', then the app's), in
 * that order: the one list every stage of a request calls, resolved once
 * per config (the pipeline's runtime holds it, and each request's context).
 */
export function allExtensions(config: Pick<SanitizedConfig, 'custom'>): HydraExtension[] {
  let list = cache.get(config)
  if (!list) {
    const registered = (config.custom as { cwa?: { extensions?: HydraExtension[] } } | undefined)?.cwa?.extensions
    list = [...builtInExtensions, ...(registered ?? [])]
    cache.set(config, list)
  }
  return list
}

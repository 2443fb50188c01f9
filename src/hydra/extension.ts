import type { HydraContext } from './context'
import type { Resource } from './registry'

export type JsonLdObject = Record<string, unknown>

/**
 * A hook into the JSON-LD pipeline. Plugins (publishable, uploads, routes,
 * realtime...) add behaviour here instead of inside every handler.
 */
export interface HydraExtension {
  name: string
  /**
   * Adjusts a normalized item before it is sent (e.g. `_metadata` entries,
   * dynamic component resolution). Runs for items and collection members.
   */
  normalizeItem?(item: JsonLdObject, doc: Record<string, unknown>, resource: Resource, ctx: HydraContext): void | Promise<void>
}

/** Extensions registered on the config by plugins (config.custom.cwa.extensions). */
export function configExtensions(config: { custom?: Record<string, unknown> }): HydraExtension[] {
  return ((config.custom as { cwa?: { extensions?: HydraExtension[] } })?.cwa?.extensions ?? []) as HydraExtension[]
}

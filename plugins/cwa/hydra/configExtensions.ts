import type { HydraExtension } from './extension.js'

/** Extensions registered on the config by features (config.custom.cwa.extensions), in their order. */
export function configExtensions(config: { custom?: Record<string, unknown> }): HydraExtension[] {
  return ((config.custom as { cwa?: { extensions?: HydraExtension[] } })?.cwa?.extensions ?? []) as HydraExtension[]
}

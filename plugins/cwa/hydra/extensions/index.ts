import type { SanitizedConfig } from 'payload'
import { configExtensions } from '../configExtensions.js'
import type { HydraExtension } from '../extension.js'
import { componentMetadata } from './componentMetadata.js'
import { dynamicPosition } from './dynamicPosition.js'
import { userRoles } from './userRoles.js'

/** Extensions of the core layer, run before those plugins register. */
export const builtInExtensions: HydraExtension[] = [componentMetadata, dynamicPosition, userRoles]

const cache = new WeakMap<object, HydraExtension[]>()

/** The core's extensions, then the ones features registered on the config, in that order. */
export function allExtensions(config: Pick<SanitizedConfig, 'custom'>): HydraExtension[] {
  let list = cache.get(config)
  if (!list) {
    list = [...builtInExtensions, ...configExtensions(config)]
    cache.set(config, list)
  }
  return list
}

import type { HydraExtension } from '../extension'
import { componentMetadata } from './componentMetadata'
import { dynamicPosition } from './dynamicPosition'
import { userRoles } from './userRoles'

/** Extensions of the core layer, run before those plugins register. */
export const builtInExtensions: HydraExtension[] = [componentMetadata, dynamicPosition, userRoles]

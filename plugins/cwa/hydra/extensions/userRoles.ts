import { expandRoles } from '../../core/roles.js'
import type { HydraExtension } from '../extension.js'

/** Roles are stored as assigned and expanded through the hierarchy on output. */
export const userRoles: HydraExtension = {
  name: 'user-roles',
  normalizeItem(item, doc, resource, ctx) {
    if (resource.meta.kind !== 'user') return
    item.roles = expandRoles(doc.roles as string[] | undefined, ctx.options.roleHierarchy)
  },
}

import { expandRoles } from '../../core/roles.js'
import type { Resource } from '../../core/registry.js'
import type { HydraExtension } from '../../hydra/extension.js'

/**
 * A user's `roles` on output: stored as assigned, served expanded through
 * the role hierarchy (ROLE_USER always), so a front end checks a role
 * without knowing the hierarchy. The users feature's hooks for it: the
 * item, its JSON-LD term and its documented schema.
 */

const isUsers = (resource: Resource) => resource.meta.kind === 'user'

/** Every user item carries its expanded roles (reads, writes and collection members). */
export const outputRoles: NonNullable<HydraExtension['normalizeItem']> = (item, doc, resource, ctx) => {
  if (!isUsers(resource)) return
  item.roles = expandRoles(doc.roles as string[] | undefined, ctx.options.roleHierarchy)
}

/** `roles` is output even when the users collection declares no such field: its context names it. */
export const rolesTerm: NonNullable<HydraExtension['describeContext']> = (resource, terms) => {
  if (isUsers(resource)) terms.roles = `${resource.meta.shortName}/roles`
}

/**
 * Expanded on output, roles take values beyond the stored options: read,
 * they are any strings; written, the field's own options.
 */
export const describeRoles: NonNullable<HydraExtension['describeProperties']> = (resource, properties) => {
  if (!isUsers(resource)) return
  const roles = properties.find((property) => property.json === 'roles' && property.readable && property.field)
  if (!roles) return
  const stored = roles.schema
  roles.schema = { type: 'array', items: { type: 'string' } }
  if (roles.writable) roles.writeSchema = stored
}

import type { Access } from 'payload'
import type { ResolvedCwaOptions } from './options.js'
import { isAdmin } from './roles.js'

/** Reads stay public; later plugins (publishable, routes) narrow them per resource. */
export const publicRead: Access = () => true

/** Server-only collections (token stores): no API reaches them; server code uses overrideAccess or SQL. */
export const closedToEveryone = { read: () => false, create: () => false, update: () => false, delete: () => false }

/** Writes of content resources need an admin. */
export const adminOnly =
  (options: ResolvedCwaOptions): Access =>
  ({ req }) =>
    isAdmin(req.user, options.roleHierarchy)

/** The access block of every content collection (layouts, pages, components...). */
export function contentAccess(options: ResolvedCwaOptions) {
  const admin = adminOnly(options)
  return { read: publicRead, create: admin, update: admin, delete: admin }
}

import type { Field, FieldAccess, PayloadRequest } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'
import { passes } from '../../core/roles.js'

/**
 * "Admin" for routes, in one place: the caller passes the publish permission
 * (contract: admins see, preview and edit gated routes; Route.liveAt and
 * _metadata.effectiveLiveAt are admin-only). With the default permission
 * (ROLE_ADMIN) this is the admin role.
 */
export function isRouteAdmin(user: PayloadRequest['user'], options: ResolvedCwaOptions): boolean {
  return passes(options.publishable.permission, user, options.roleHierarchy)
}

/**
 * Route.liveAt: the go-live date (null = not live; the path stays reserved).
 * Every creation defaults it to now; only route admins read or write it, on
 * every API (a field others write is dropped by Payload, and never shown to
 * them). The Local API's default (overrideAccess) skips field access: the
 * service sets it freely.
 */
export function liveAtField(options: ResolvedCwaOptions): Field {
  const adminOnly: FieldAccess = ({ req }) => isRouteAdmin(req.user, options)
  return {
    name: 'liveAt',
    type: 'date',
    index: true,
    defaultValue: () => new Date().toISOString(),
    access: { read: adminOnly, create: adminOnly, update: adminOnly },
    admin: {
      position: 'sidebar',
      date: { pickerAppearance: 'dayAndTime' },
      description: 'Empty: not live (the path stays reserved). Future: scheduled. Inherited from routed parent pages.',
    },
  }
}

/**
 * Route.effectiveLiveAt: the inherited go-live date (latest of the route's
 * own liveAt and every routed ancestor's; null when any is null), stored so
 * that a read decides liveness inside its own query (`effectiveLiveAt <=
 * now`) instead of running the recursive CTE on every request. Kept up to
 * date by the service alone (see access/recompute.ts), after every write
 * that can change it, in the writing transaction; no API writes it.
 * Serialized only as `_metadata.effectiveLiveAt`, for admins.
 */
export function effectiveLiveAtField(options: ResolvedCwaOptions): Field {
  return {
    name: 'effectiveLiveAt',
    type: 'date',
    index: true,
    access: { read: ({ req }) => isRouteAdmin(req.user, options), create: () => false, update: () => false },
    admin: {
      position: 'sidebar',
      readOnly: true,
      date: { pickerAppearance: 'dayAndTime' },
      description: 'Inherited go-live date (computed).',
    },
  }
}

import type { Field, FieldAccess } from 'payload'
import type { ResolvedCwaOptions } from '../cwa/options'
import { passes } from '../cwa/roles'

/**
 * "Admin" for routes, in one place: the caller passes the publish permission
 * (contract: admins see, preview and edit gated routes; Route.liveAt and
 * _metadata.effectiveLiveAt are admin-only). With the default permission
 * (ROLE_ADMIN) this is the admin role.
 */
export function isRouteAdmin(user: unknown, options: ResolvedCwaOptions): boolean {
  return passes(options.publishable.permission, user as never, options.roleHierarchy)
}

/**
 * Route.liveAt: the go-live date (null = not live; the path stays reserved).
 * Every creation defaults it to now; only route admins read or write it, on
 * every API (a field others write is dropped by Payload, and never shown to
 * them). Calls without a user (the service, the Local API) are trusted.
 */
export function liveAtField(options: ResolvedCwaOptions): Field {
  const adminOrService: FieldAccess = ({ req }) => !req.user || isRouteAdmin(req.user, options)
  return {
    name: 'liveAt',
    type: 'date',
    index: true,
    defaultValue: () => new Date().toISOString(),
    access: { read: adminOrService, create: adminOrService, update: adminOrService },
    admin: {
      position: 'sidebar',
      date: { pickerAppearance: 'dayAndTime' },
      description: 'Empty: not live (the path stays reserved). Future: scheduled. Inherited from routed parent pages.',
    },
  }
}

import type { PayloadRequest } from 'payload'
import { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER, type SecurityExpression } from './options.js'

type Hierarchy = Record<string, string[]>

/** Expands stored roles through the hierarchy; ROLE_USER is always present. */
export function expandRoles(stored: readonly string[] | null | undefined, hierarchy: Hierarchy): string[] {
  const out = new Set<string>([ROLE_USER])
  const visit = (role: string) => {
    if (out.has(role) && role !== ROLE_USER) return
    out.add(role)
    for (const child of hierarchy[role] ?? []) visit(child)
  }
  for (const role of stored ?? []) visit(role)
  return [...out]
}

type MaybeUser = PayloadRequest['user'] | null | undefined

/** Roles of a request's user, expanded (empty for anonymous). */
export function userRoles(user: MaybeUser, hierarchy: Hierarchy): string[] {
  if (!user) return []
  return expandRoles((user as { roles?: string[] }).roles, hierarchy)
}

export function hasRole(user: MaybeUser, role: string, hierarchy: Hierarchy): boolean {
  return userRoles(user, hierarchy).includes(role)
}

export function isAdmin(user: MaybeUser, hierarchy: Hierarchy): boolean {
  return hasRole(user, ROLE_ADMIN, hierarchy)
}

export function isSuperAdmin(user: MaybeUser, hierarchy: Hierarchy): boolean {
  return hasRole(user, ROLE_SUPER_ADMIN, hierarchy)
}

/** Evaluates a security expression (role name or function) for a user. */
export function passes(expression: SecurityExpression, user: MaybeUser, hierarchy: Hierarchy): boolean {
  if (typeof expression === 'function') return expression(user ?? null)
  return hasRole(user, expression, hierarchy)
}

import type { PayloadRequest } from 'payload'
import type { ResolvedCwaOptions } from '../../../core/options.js'
import { passes } from '../../../core/roles.js'

const escapeRegex = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

/** Item rule: `*` is any run of characters, the pattern unanchored (`/admin*` matches `/foo/admin/bar`). */
export function itemPattern(route: string): RegExp {
  return new RegExp(route.split('*').map(escapeRegex).join('.*'))
}

/** Collection rule: a SQL LIKE pattern over the whole path (`*` -> `%`, LIKE's own wildcards escaped). */
export function likePattern(route: string): string {
  return route.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '%')
}

/** The route_security rules this caller fails. */
export function failedRules(options: ResolvedCwaOptions, user: PayloadRequest['user']): string[] {
  return options.routeSecurity
    .filter((rule) => !passes(rule.security, user, options.roleHierarchy))
    .map((rule) => rule.route)
}

/** Item access by path: denied when any matching rule fails for the caller. */
export function routeRulesAllow(options: ResolvedCwaOptions, user: PayloadRequest['user'], path: string): boolean {
  return failedRules(options, user).every((route) => !itemPattern(route).test(path))
}

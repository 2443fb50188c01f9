/**
 * The plugin options, assembled. Each part owns its options where they are
 * used, typed, with the defaults and the key schema side by side:
 *
 *   core/options.ts                  apiPrefix, tablePrefix, websiteName, roleHierarchy, roles
 *   session/options.ts               session.*
 *   features/publishable/options.ts  publishable.permission
 *   features/routes/options.ts       routeSecurity, routableSecurity, httpCache, routeGenerator
 *   features/users/options.ts        users.allowRegistration, user.*
 *   features/forms/options.ts        forms, enabledComponents.form
 *   features/collection/options.ts   enabledComponents.collection
 *   features/uploads/options.ts      uploads.* (storage aliases, image filters, limits)
 *   features/frontEnd/options.ts     cors
 *   features/compat/options.ts       compat, compatIrisWithoutPrefix
 *   features/orphans/options.ts      orphanedResources.*
 *
 * The parts add their keys to `CwaPluginOptions` / `ResolvedCwaOptions`
 * (declared by the core) by declaration merging; this file only imports
 * their schemas and resolvers, refuses unknown keys and resolves.
 */
import type { Payload } from 'payload'
import { assertKnownOptionKeys, type OptionKeys } from './core/optionKeys'
import { type CwaPluginOptions, type ResolvedCwaOptions, coreOptionKeys, resolveCoreOptions } from './core/options'
import { getCwaMeta } from './core/types'
import { resolveSessionOptions, sessionOptionKeys } from './session/options'
import { collectionComponentKeys, resolveCollectionComponentSwitch } from './features/collection/options'
import { frontEndOptionKeys, resolveFrontEndOptions } from './features/frontEnd/options'
import { compatOptionKeys, resolveCompatOptions } from './features/compat/options'
import { formComponentKeys, formsOptionKeys, resolveFormComponentSwitch, resolveFormsOptions } from './features/forms/options'
import { orphansOptionKeys, resolveOrphansOptions } from './features/orphans/options'
import { publishableOptionKeys, resolvePublishablePluginOptions } from './features/publishable/options'
import { resolveRoutesOptions, routesOptionKeys } from './features/routes/options'
import { resolveUsersOptions, usersOptionKeys } from './features/users/options'
import { resolveUploadsOptions, uploadsOptionKeys } from './features/uploads/options'

export { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from './core/options'
export type { CwaPluginOptions, ResolvedCwaOptions, SecurityExpression } from './core/options'

/** Every key the plugin options accept (typed: a key of CwaPluginOptions missing here does not compile). */
export const cwaOptionKeys: OptionKeys<CwaPluginOptions> = {
  ...coreOptionKeys,
  ...usersOptionKeys,
  ...publishableOptionKeys,
  ...routesOptionKeys,
  ...formsOptionKeys,
  ...uploadsOptionKeys,
  ...orphansOptionKeys,
  enabledComponents: { ...formComponentKeys, ...collectionComponentKeys },
  ...sessionOptionKeys,
  ...frontEndOptionKeys,
  ...compatOptionKeys,
}

/**
 * Refuses keys the plugin does not know (a typo would otherwise be ignored
 * and its default used): the error names each by its full path and the
 * closest known key. `source` starts the message (e.g. the options file).
 */
export function checkOptionKeys(options: unknown, source = 'cwa options'): void {
  assertKnownOptionKeys(options, cwaOptionKeys, source)
}

/** Every default of the plugin, resolved by the part that owns it. Throws on an unknown key. */
export function resolveOptions(options: CwaPluginOptions = {}): ResolvedCwaOptions {
  checkOptionKeys(options)
  return {
    ...resolveCoreOptions(options),
    ...resolveUsersOptions(options),
    ...resolvePublishablePluginOptions(options),
    ...resolveRoutesOptions(options),
    ...resolveFormsOptions(options),
    ...resolveUploadsOptions(options),
    ...resolveOrphansOptions(options),
    enabledComponents: { ...resolveFormComponentSwitch(options), ...resolveCollectionComponentSwitch(options) },
    ...resolveSessionOptions(options),
    ...resolveFrontEndOptions(options),
    ...resolveCompatOptions(options),
  }
}

/**
 * Declarations defineComponent / definePageData accept whose feature does not
 * exist yet: they are kept on the type (so declaring them now is not an
 * error) but do nothing. Remove a name here when its feature lands.
 */
export const INERT_DECLARATIONS = ['realtime'] as const

/** The declared types using each inert declaration (only declarations in use are listed). */
export function inertDeclarations(collections: ReadonlyArray<{ slug: string; custom?: Record<string, unknown> }>): Array<{ declaration: string; types: string[] }> {
  return INERT_DECLARATIONS.map((declaration) => ({
    declaration,
    types: collections.flatMap((collection) => {
      const meta = getCwaMeta(collection)
      return meta?.[declaration] ? [meta.shortName] : []
    }),
  })).filter(({ types }) => types.length > 0)
}

/** The start-up warning about inert declarations, or null when no type uses one. */
export function inertDeclarationsWarning(collections: Parameters<typeof inertDeclarations>[0]): string | null {
  const inert = inertDeclarations(collections)
  if (inert.length === 0) return null
  const list = inert.map(({ declaration, types }) => `${declaration} (${types.join(', ')})`).join('; ')
  return `cwa: accepted but not active yet, these type declarations do nothing until their features exist: ${list}`
}

/** Logs the inert-declarations warning through Payload's logger (once per start: called from onInit). */
export function warnInertDeclarations(payload: Pick<Payload, 'config' | 'logger'>): void {
  const warning = inertDeclarationsWarning(payload.config.collections)
  if (warning) payload.logger.warn(warning)
}

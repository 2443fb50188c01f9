/**
 * The plugin options, assembled. Each part owns its options where they are
 * used, typed, with the defaults and the key schema side by side:
 *
 *   core/options.ts                  apiPrefix, tablePrefix, websiteName, roleHierarchy, roles
 *   session/options.ts               session.*
 *   features/publishable/options.ts  publishable.permission
 *   features/routes/options.ts       routeSecurity, routableSecurity, routeGenerator
 *   features/httpCache/options.ts    httpCache.*
 *   features/readModel/options.ts    readModel.*
 *   features/users/options.ts        users.allowRegistration, user.*
 *   features/forms/options.ts        forms, enabledComponents.form
 *   features/collection/options.ts   enabledComponents.collection
 *   features/realtime/options.ts     mercure.*
 *   features/orphans/options.ts      orphanedResources.*
 *   features/uploads/options.ts      uploads.* (storage aliases, image filters, limits)
 *   features/frontEnd/options.ts     cors
 *   features/compat/options.ts       compat, compatIrisWithoutPrefix
 *   features/admin/options.ts        frontEndUrl
 *   commands/options.ts              commands.* (how the operator commands start)
 *
 * The parts add their keys to `CwaPluginOptions` / `ResolvedCwaOptions`
 * (declared by the core) by declaration merging; this file only imports
 * their schemas and resolvers, refuses unknown keys and resolves.
 */
import type { Payload } from 'payload'
import { assertKnownOptionKeys, type OptionKeys } from './core/optionKeys.js'
import { type CwaPluginOptions, type ResolvedCwaOptions, coreOptionKeys, resolveCoreOptions } from './core/options.js'
import { getCwaMeta } from './core/types.js'
import { resolveSessionOptions, sessionOptionKeys } from './session/options.js'
import { collectionComponentKeys, resolveCollectionComponentSwitch } from './features/collection/options.js'
import { frontEndOptionKeys, resolveFrontEndOptions } from './features/frontEnd/options.js'
import { compatOptionKeys, resolveCompatOptions } from './features/compat/options.js'
import { adminOptionKeys, resolveAdminOptions } from './features/admin/options.js'
import {
  formComponentKeys,
  formsOptionKeys,
  resolveFormComponentSwitch,
  resolveFormsOptions,
} from './features/forms/options.js'
import { httpCacheOptionKeys, resolveHttpCacheOptions } from './features/httpCache/options.js'
import { orphansOptionKeys, resolveOrphansOptions } from './features/orphans/options.js'
import { publishableOptionKeys, resolvePublishablePluginOptions } from './features/publishable/options.js'
import { readModelOptionKeys, resolveReadModelOptions } from './features/readModel/options.js'
import { realtimeOptionKeys, resolveRealtimeOptions } from './features/realtime/options.js'
import { resolveRoutesOptions, routesOptionKeys } from './features/routes/options.js'
import { resolveUsersOptions, usersOptionKeys } from './features/users/options.js'
import { resolveUploadsOptions, uploadsOptionKeys } from './features/uploads/options.js'
import { commandsOptionKeys, resolveCommandsOptions } from './commands/options.js'

export { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from './core/options.js'
export type { CwaPluginOptions, ResolvedCwaOptions, SecurityExpression } from './core/options.js'

/** Every key the plugin options accept (typed: a key of CwaPluginOptions missing here does not compile). */
export const cwaOptionKeys: OptionKeys<CwaPluginOptions> = {
  ...coreOptionKeys,
  ...usersOptionKeys,
  ...publishableOptionKeys,
  ...routesOptionKeys,
  ...formsOptionKeys,
  ...uploadsOptionKeys,
  enabledComponents: { ...formComponentKeys, ...collectionComponentKeys },
  ...sessionOptionKeys,
  ...frontEndOptionKeys,
  ...compatOptionKeys,
  ...orphansOptionKeys,
  ...realtimeOptionKeys,
  ...httpCacheOptionKeys,
  ...readModelOptionKeys,
  ...adminOptionKeys,
  ...commandsOptionKeys,
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
    enabledComponents: { ...resolveFormComponentSwitch(options), ...resolveCollectionComponentSwitch(options) },
    ...resolveSessionOptions(options),
    ...resolveFrontEndOptions(options),
    ...resolveCompatOptions(options),
    ...resolveOrphansOptions(options),
    ...resolveRealtimeOptions(options),
    ...resolveHttpCacheOptions(options),
    ...resolveReadModelOptions(options),
    ...resolveAdminOptions(options),
    ...resolveCommandsOptions(options),
  }
}

/**
 * Declarations defineComponent / definePageData accept whose feature does not
 * exist yet: they are kept on the type (so declaring them now is not an
 * error) but do nothing. Remove a name here when its feature lands.
 */
export const INERT_DECLARATIONS: readonly string[] = []

/** The declared types using each inert declaration (only declarations in use are listed). */
export function inertDeclarations(
  collections: ReadonlyArray<{ slug: string; custom?: Record<string, unknown> }>,
): Array<{ declaration: string; types: string[] }> {
  return INERT_DECLARATIONS.map((declaration) => ({
    declaration,
    types: collections.flatMap((collection) => {
      const meta = getCwaMeta(collection)
      return meta && (meta as unknown as Record<string, unknown>)[declaration] ? [meta.shortName] : []
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

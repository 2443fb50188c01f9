import type { PayloadRequest } from 'payload'
import { defineOptions, option, type OptionsInput, type OptionsResolved } from './defineOptions.js'

/**
 * The plugin options and their resolved form. The core declares its own
 * keys here; the session layer and each feature declare theirs in their own
 * options.ts and add them to these interfaces by declaration merging:
 *
 *   declare module '../../core/options.js' {
 *     interface CwaPluginOptions extends OptionsInput<typeof routesOptions> {}
 *     interface ResolvedCwaOptions extends OptionsResolved<typeof routesOptions> {}
 *   }
 *
 * So the core names no feature, every option is typed where it is used, and
 * `CwaPluginOptions` / `ResolvedCwaOptions` are still the whole set. Each
 * part declares its options once with defineOptions (core/defineOptions.ts),
 * which gives the two types, the key schema and the resolver; the assembly
 * (plugins/cwa/options.ts) checks and resolves them all.
 */

/** The three roles of the contract; applications may add their own. */
export const ROLE_USER = 'ROLE_USER'
export const ROLE_ADMIN = 'ROLE_ADMIN'
export const ROLE_SUPER_ADMIN = 'ROLE_SUPER_ADMIN'

/**
 * A security expression: a role name the caller must hold (after hierarchy
 * expansion), or a function deciding from the request's user.
 */
export type SecurityExpression = string | ((user: PayloadRequest['user'] | null) => boolean)

export const DEFAULT_ROLE_HIERARCHY: Readonly<Record<string, string[]>> = {
  [ROLE_ADMIN]: [ROLE_USER],
  [ROLE_SUPER_ADMIN]: [ROLE_ADMIN, 'ROLE_ALLOWED_TO_SWITCH'],
}

/** The core's options, declared once (core/defineOptions.ts). */
export const coreOptions = defineOptions({
  apiPrefix: option.string({
    default: '/_api',
    doc: 'Mount point of the JSON-LD API; every IRI starts with it ([API](api.md)). Blank: the API at the root.',
    resolve: (given, fallback) => normalizePrefix(given ?? fallback),
  }),
  tablePrefix: option.string({ default: '_acb_', doc: "Prefix of the service's own tables." }),
  websiteName: option.string({ default: 'Website', doc: 'Site name used in emails (`{{ website_name }}`).' }),
  roleHierarchy: option<Record<string, string[]>>({
    type: 'Record<string, string[]>',
    default: DEFAULT_ROLE_HIERARCHY,
    doc: 'Role hierarchy: role -> roles it includes ([sessions](api.md#sessions)).',
    resolve: (given, fallback) => given ?? structuredClone(fallback),
  }),
  preparedStatements: option.boolean({
    default: true,
    doc:
      'Name the parameterised SQL statements so PostgreSQL parses and plans each once per connection ' +
      '(core/utils/preparedStatements.ts); turn it off behind a pooler that cannot keep prepared statements ' +
      '(PgBouncer in transaction mode before 1.21).',
  }),
  scheduleRecheck: option.number({
    default: 1,
    doc:
      'Seconds (0 to 60) a soonest scheduled moment read from the database (the next route go-live, the next ' +
      'scheduled publication) is reused before it is read again; 0: read on every request. Kept values are dropped ' +
      'at once by every write committed in this process and once the moment passes; this bounds how late a ' +
      'schedule written by another process (a second server, plain SQL) is seen (core/utils/publicationMoment.ts).',
    resolve: (given, fallback) => {
      const value: unknown = given === undefined ? fallback : given
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 60) {
        throw new Error(
          `cwa options: scheduleRecheck must be a number of seconds from 0 to 60, got ${JSON.stringify(value)}`,
        )
      }
      return value
    },
  }),
  replicaWaitMs: option.number({
    default: 5000,
    doc:
      "With read replicas (the PostgreSQL adapter's `readReplicas`): how long a committed write waits, at most, " +
      'for every replica to apply it before it is acknowledged (core/replicas); 0: no wait (anonymous reads may ' +
      'then miss a write for as long as a replica lags).',
    resolve: (given, fallback) => {
      const value: unknown = given === undefined ? fallback : given
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 60_000) {
        throw new Error(
          `cwa options: replicaWaitMs must be a whole number of milliseconds from 0 to 60000, got ${JSON.stringify(value)}`,
        )
      }
      return value
    },
  }),
})

/** The plugin options: the core's (coreOptions), and every part's, added by declaration merging. */
export interface CwaPluginOptions extends OptionsInput<typeof coreOptions> {
  /** Switches of the built-in component types (each feature that adds one adds its switch to EnabledComponents). */
  enabledComponents?: EnabledComponents
}

/** The options resolved: every default applied. */
export interface ResolvedCwaOptions extends OptionsResolved<typeof coreOptions> {
  enabledComponents: ResolvedEnabledComponents
}

/** One `<component>?: boolean` per built-in component type, added by its feature. */
export interface EnabledComponents {}
export interface ResolvedEnabledComponents {}

/** `/_api`, `_api`, `/_api/` -> `/_api`; blank -> '' (the API at the root). */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/\/+$/, '')
  if (trimmed === '') return ''
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

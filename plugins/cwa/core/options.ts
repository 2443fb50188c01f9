import type { PayloadRequest } from 'payload'
import type { OptionKeys } from './optionKeys.js'

/**
 * The plugin options and their resolved form. The core declares its own
 * keys here; the session layer and each feature declare theirs in their own
 * options.ts and add them to these interfaces by declaration merging:
 *
 *   declare module '../../core/options.js' {
 *     interface CwaPluginOptions { routeSecurity?: ... }
 *     interface ResolvedCwaOptions { routeSecurity: ... }
 *   }
 *
 * So the core names no feature, every option is typed where it is used, and
 * `CwaPluginOptions` / `ResolvedCwaOptions` are still the whole set. Each
 * part exports its key schema and resolver (defaults) side by side; the
 * assembly (plugins/cwa/options.ts) checks and resolves them all.
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

export interface CwaPluginOptions {
  /** Mount point of the JSON-LD API; every IRI starts with it. Default `/_api`. */
  apiPrefix?: string
  /** Prefix of the service's own tables. Default `_acb_`. */
  tablePrefix?: string
  /** Site name used in emails. Default `Website`. */
  websiteName?: string
  /** Role hierarchy: role -> roles it includes. */
  roleHierarchy?: Record<string, string[]>
  /** Switches of the built-in component types (each feature that adds one adds its switch to EnabledComponents). */
  enabledComponents?: EnabledComponents
  /**
   * Name the parameterised SQL statements so PostgreSQL parses and plans each
   * once per connection (core/utils/preparedStatements.ts). Default true; turn
   * it off behind a pooler that cannot keep prepared statements (PgBouncer in
   * transaction mode before 1.21).
   */
  preparedStatements?: boolean
  /**
   * Seconds a soonest scheduled moment read from the database (the next route go-live, the next scheduled
   * publication) is reused before it is read again (default 1; 0: read on every request). Kept values are
   * dropped at once by every write committed in this process and once the moment passes; this bounds how late a
   * schedule written by another process (a second server, plain SQL) is seen (core/utils/keptMoment.ts).
   */
  scheduleRecheck?: number
  /**
   * With read replicas (the PostgreSQL adapter's `readReplicas`): how long a
   * committed write waits, at most, for every replica to apply it before it
   * is acknowledged (core/replicas). Default 5000 ms; 0: no wait (anonymous
   * reads may then miss a write for as long as a replica lags).
   */
  replicaWaitMs?: number
}

export interface ResolvedCwaOptions {
  apiPrefix: string
  tablePrefix: string
  websiteName: string
  roleHierarchy: Record<string, string[]>
  enabledComponents: ResolvedEnabledComponents
  preparedStatements: boolean
  scheduleRecheck: number
  replicaWaitMs: number
}

/** One `<component>?: boolean` per built-in component type, added by its feature. */
export interface EnabledComponents {}
export interface ResolvedEnabledComponents {}

type CoreKey =
  | 'apiPrefix'
  | 'tablePrefix'
  | 'websiteName'
  | 'roleHierarchy'
  | 'preparedStatements'
  | 'scheduleRecheck'
  | 'replicaWaitMs'

/** Keys of the core (roleHierarchy is a map of the site's own role names: not checked further). */
export const coreOptionKeys: OptionKeys<Pick<CwaPluginOptions, CoreKey>> = {
  apiPrefix: true,
  tablePrefix: true,
  websiteName: true,
  roleHierarchy: true,
  preparedStatements: true,
  scheduleRecheck: true,
  replicaWaitMs: true,
}

export const DEFAULT_ROLE_HIERARCHY: Readonly<Record<string, string[]>> = {
  [ROLE_ADMIN]: [ROLE_USER],
  [ROLE_SUPER_ADMIN]: [ROLE_ADMIN, 'ROLE_ALLOWED_TO_SWITCH'],
}

/** Defaults of the core options. */
export function resolveCoreOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, CoreKey> {
  return {
    apiPrefix: normalizePrefix(options.apiPrefix ?? '/_api'),
    tablePrefix: options.tablePrefix ?? '_acb_',
    websiteName: options.websiteName ?? 'Website',
    roleHierarchy: options.roleHierarchy ?? structuredClone(DEFAULT_ROLE_HIERARCHY),
    preparedStatements: options.preparedStatements ?? true,
    scheduleRecheck: recheckSeconds(options.scheduleRecheck),
    replicaWaitMs: replicaWait(options.replicaWaitMs),
  }
}

function recheckSeconds(value: unknown): number {
  if (value === undefined) return 1
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 60) {
    throw new Error(
      `cwa options: scheduleRecheck must be a number of seconds from 0 to 60, got ${JSON.stringify(value)}`,
    )
  }
  return value
}

function replicaWait(value: unknown): number {
  if (value === undefined) return 5000
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 60_000) {
    throw new Error(
      `cwa options: replicaWaitMs must be a whole number of milliseconds from 0 to 60000, got ${JSON.stringify(value)}`,
    )
  }
  return value
}

/** `/_api`, `_api`, `/_api/` -> `/_api`; blank -> '' (the API at the root). */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/\/+$/, '')
  if (trimmed === '') return ''
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

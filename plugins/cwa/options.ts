/**
 * The plugin options, assembled. Each part owns its options where they are
 * used, typed, with the defaults and the key schema side by side (its
 * options.ts); a feature's declaration carries them (`options`: keys and
 * resolver), so this file names no feature:
 *
 *   core/options.ts                  apiPrefix, tablePrefix, websiteName, roleHierarchy, preparedStatements, ...
 *   each feature of features.ts      its declaration's `options` (features/<feature>/options.ts, session/options.ts)
 *   commands/options.ts              commands.* (how the operator commands start)
 *
 * The parts add their keys to `CwaPluginOptions` / `ResolvedCwaOptions`
 * (declared by the core) by declaration merging; this file joins their
 * schemas, refuses unknown keys and resolves (docs/configuration.md lists
 * which file holds which option).
 */
import { assertKnownOptionKeys, joinKeySchemas, type OptionKeys } from './core/optionKeys.js'
import { type CwaPluginOptions, type ResolvedCwaOptions, coreOptionKeys, resolveCoreOptions } from './core/options.js'
import { commandsOptionKeys, resolveCommandsOptions } from './commands/options.js'
import { type DeclaredFeature, FEATURES } from './features.js'
import type { FeatureOptions } from './hydra/feature.js'

export { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from './core/options.js'
export type { CwaPluginOptions, ResolvedCwaOptions, SecurityExpression } from './core/options.js'

/** The parts that own options, in the order their keys are listed: the core, the features (in their order), the rest. */
const PARTS: ReadonlyArray<{ name: string } & FeatureOptions> = [
  { name: 'core', keys: coreOptionKeys, resolve: resolveCoreOptions },
  ...FEATURES.flatMap((feature) => (feature.options ? [{ name: feature.name, ...feature.options }] : [])),
  { name: 'commands', keys: commandsOptionKeys, resolve: resolveCommandsOptions },
]

// The parts' schemas and resolved values as types: the features' from their declarations (features.ts keeps
// their types), so a key of CwaPluginOptions (or of ResolvedCwaOptions) that no part declares does not compile.
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never
type DeclaredOptions<F> = F extends { options: FeatureOptions<infer Keys, infer Resolved> }
  ? { keys: Keys; resolved: Resolved }
  : never
type FeatureParts = DeclaredOptions<DeclaredFeature>
type JoinedKeys = typeof coreOptionKeys & typeof commandsOptionKeys & UnionToIntersection<FeatureParts['keys']>
type JoinedResolved = ReturnType<typeof resolveCoreOptions> &
  ReturnType<typeof resolveCommandsOptions> &
  UnionToIntersection<FeatureParts['resolved']>

/** Every key the plugin options accept (typed: a key of CwaPluginOptions missing here does not compile). */
// (The join is a run-time merge, typed KeySchema: JoinedKeys says what it holds, and the annotation checks that.)
export const cwaOptionKeys: OptionKeys<CwaPluginOptions> = joinKeySchemas(PARTS) as JoinedKeys

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
  // (A run-time merge of the parts' values: JoinedResolved says what it holds, the return type checks that.)
  return joinResolved(PARTS.map((part) => part.resolve(options))) as JoinedResolved
}

/** The parts' resolved values as one object: a shared nested key (enabledComponents) joins its parts' values. */
function joinResolved(values: object[]): Record<string, unknown> {
  const isPlain = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  return values.reduce<Record<string, unknown>>((out, value) => {
    for (const [key, resolved] of Object.entries(value)) {
      const existing = out[key]
      out[key] = isPlain(existing) && isPlain(resolved) ? joinResolved([existing, resolved]) : resolved
    }
    return out
  }, {})
}

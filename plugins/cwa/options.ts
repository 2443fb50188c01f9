/**
 * The plugin options, assembled. Each part owns its options where they are
 * used, typed, with the defaults and the key schema side by side (its
 * options.ts); a feature's declaration carries them (`options`: keys and
 * resolver), so this file names no feature:
 *
 *   core/options.ts                  apiPrefix, tablePrefix, websiteName, roleHierarchy, preparedStatements, ...
 *   each feature of features.ts      its declaration's `options` (features/<feature>/options.ts, session/options.ts)
 *   core/commands/options.ts         commands.* (how the operator commands start)
 *
 * The parts add their keys to `CwaPluginOptions` / `ResolvedCwaOptions`
 * (declared by the core) by declaration merging; this file joins their
 * schemas, refuses unknown keys and resolves (docs/configuration.md lists
 * which file holds which option).
 *
 * An app or another package adds features of its own with the `features`
 * option (a CwaFeature each): they join the built-in ones here, options
 * included, and cwaPlugin assembles them like any other
 * (docs/architecture.md, "A feature of your own").
 */
import type { OptionSpec, OptionsResolved } from './core/defineOptions.js'
import { assertKnownOptionKeys, joinKeySchemas, type KeySchema, type OptionKeys } from './core/optionKeys.js'
import { type CwaPluginOptions, type ResolvedCwaOptions, coreOptions } from './core/options.js'
import { commandsOptions } from './core/commands/options.js'
import { BUILT_IN_FEATURES, type DeclaredFeature } from './features.js'
import { type CwaFeature, type FeatureOptions, orderFeatures } from './hydra/feature.js'
import { isPlainObject } from './core/utils/plainObject.js'

export { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from './core/options.js'
export type { CwaPluginOptions, ResolvedCwaOptions, SecurityExpression } from './core/options.js'

declare module './core/options.js' {
  interface CwaPluginOptions {
    /**
     * Features of the app or of other packages, assembled with the built-in
     * ones: their options, collections, endpoints, hooks, admin components
     * (docs/architecture.md, "A feature of your own"). Ordered by their
     * `after`, like the built-in ones.
     */
    features?: readonly CwaFeature[]
  }
}

/** The assembly's own key: the list of added features (a list of declarations, checked by orderFeatures, not by name). */
const assemblyOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'features'>> = { features: true }

/** The built-in features, then the options' own, in the order their hooks run (each after what its `after` names). */
export function featuresOf(options: CwaPluginOptions = {}): readonly CwaFeature[] {
  const added = options.features ?? []
  if (!Array.isArray(added) || added.some((feature) => typeof (feature as { name?: unknown })?.name !== 'string'))
    throw new Error('cwa options: features must be a list of features (each a CwaFeature with a name)')
  if (added.length === 0) return BUILT_IN_FEATURES
  let ordered = ordering.get(added)
  if (!ordered) {
    ordered = orderFeatures([...BUILT_IN_FEATURES, ...added])
    ordering.set(added, ordered)
  }
  return ordered
}
/** The order of each list of added features, computed once (resolveOptions and cwaPlugin both ask). */
const ordering = new WeakMap<readonly CwaFeature[], readonly CwaFeature[]>()

/** The parts that own options, in the order their keys are listed: the core, the features (in their order), the rest. */
function partsOf(features: readonly CwaFeature[]): ReadonlyArray<{ name: string } & FeatureOptions> {
  return [
    { name: 'core', ...coreOptions },
    { name: 'assembly', keys: assemblyOptionKeys, resolve: () => ({}) },
    ...features.flatMap((feature) => (feature.options ? [{ name: feature.name, ...feature.options }] : [])),
    { name: 'commands', ...commandsOptions },
  ]
}

/** The built-in parts whose options are declared with defineOptions (core/defineOptions.ts), for the docs. */
export function declaredOptionParts(): Array<{ name: string; spec: OptionSpec }> {
  return partsOf(BUILT_IN_FEATURES).flatMap(({ name, spec }) => (spec ? [{ name, spec }] : []))
}

// The parts' schemas and resolved values as types: the features' from their declarations (features.ts keeps
// their types), so a key of CwaPluginOptions (or of ResolvedCwaOptions) that no part declares does not compile.
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never
type DeclaredOptions<F> = F extends { options: FeatureOptions<infer Keys, infer Resolved> }
  ? { keys: Keys; resolved: Resolved }
  : never
type FeatureParts = DeclaredOptions<DeclaredFeature>
type JoinedKeys = (typeof coreOptions)['keys'] &
  typeof assemblyOptionKeys &
  (typeof commandsOptions)['keys'] &
  UnionToIntersection<FeatureParts['keys']>
type JoinedResolved = OptionsResolved<typeof coreOptions> &
  OptionsResolved<typeof commandsOptions> &
  UnionToIntersection<FeatureParts['resolved']>

/**
 * Every key the plugin options accept with the built-in features (typed: a
 * key of CwaPluginOptions missing here does not compile). Options naming
 * features of their own accept those features' keys too (checkOptionKeys).
 */
// (The join is a run-time merge, typed KeySchema: JoinedKeys says what it holds, and the annotation checks that.)
export const cwaOptionKeys: OptionKeys<CwaPluginOptions> = joinKeySchemas(partsOf(BUILT_IN_FEATURES)) as JoinedKeys

/** The keys accepted with these features: the built-in schema, or the one joined with the added features' keys. */
function optionKeysOf(features: readonly CwaFeature[]): KeySchema {
  return features === BUILT_IN_FEATURES ? cwaOptionKeys : joinKeySchemas(partsOf(features))
}

/**
 * Refuses keys the plugin does not know (a typo would otherwise be ignored
 * and its default used): the error names each by its full path and the
 * closest known key. `source` starts the message (e.g. the options file).
 * The keys of the features the options add (`features`) are known too.
 */
export function checkOptionKeys(options: unknown, source = 'cwa options'): void {
  const added = isOptionsObject(options) ? featuresOf(options) : BUILT_IN_FEATURES
  assertKnownOptionKeys(options, optionKeysOf(added), source)
}

const isOptionsObject = (value: unknown): value is CwaPluginOptions =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Every default of the plugin, resolved by the part that owns it (added features included). Throws on an unknown key. */
export function resolveOptions(options: CwaPluginOptions = {}): ResolvedCwaOptions {
  const features = featuresOf(options)
  assertKnownOptionKeys(options, optionKeysOf(features), 'cwa options')
  // (A run-time merge of the parts' values: JoinedResolved says what it holds, the return type checks that.)
  return joinResolved(partsOf(features).map((part) => part.resolve(options))) as JoinedResolved
}

/** The parts' resolved values as one object: a shared nested key (enabledComponents) joins its parts' values. */
function joinResolved(values: object[]): Record<string, unknown> {
  return values.reduce<Record<string, unknown>>((out, value) => {
    for (const [key, resolved] of Object.entries(value)) {
      const existing = out[key]
      out[key] = isPlainObject(existing) && isPlainObject(resolved) ? joinResolved([existing, resolved]) : resolved
    }
    return out
  }, {})
}

import type { CollectionConfig, Config, Payload, TaskConfig } from 'payload'
import type { CwaCommand } from '../core/commands/command.js'
import type { CoreContext } from '../core/context.js'
import type { WriteListener } from '../core/events/index.js'
import type { OptionSpec } from '../core/defineOptions.js'
import type { KeySchema } from '../core/optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions } from '../core/options.js'
import type { HydraExtension } from './extension.js'

/**
 * A feature as cwaPlugin assembles it: everything it adds to the Payload
 * config, to the plugin options and to the JSON-LD pipeline, declared once.
 * Each feature's index.ts exports one; plugins/cwa/features.ts lists them
 * (in no order that matters: `after` orders them), and the core names none.
 *
 * What the package exports of a feature is in its folder too: its
 * `public.ts` (re-exported by the front door, index.ts) and its `admin/`
 * folder's `index.ts` (the components the admin panel's import map names,
 * re-exported by admin.ts). Those two are modules, not fields here: a
 * package lists its exports statically.
 */
export interface CwaFeature {
  name: string
  /**
   * The features it must come after, by name, each with its reason beside
   * it: the order in which every hook below runs, collections are completed
   * and write listeners are called (orderFeatures). An unknown name or a
   * cycle stops the config.
   */
  after?: readonly string[]
  /** Its plugin options: the keys it adds to CwaPluginOptions (its options.ts), their schema and their defaults. */
  options?: FeatureOptions
  /** Component or page data types it brings (the built-in Form...), declared like the site's own. */
  types?(options: ResolvedCwaOptions): CollectionConfig[]
  /** Collections of its own (users, tokens...), given what the site declared. */
  collections?(ctx: CoreContext, declared: CollectionConfig[]): CollectionConfig[]
  /** Adjusts every core and declared type once the core completed it (draft twins, route rules...). */
  completeCollection?(collection: CollectionConfig, options: ResolvedCwaOptions): CollectionConfig
  /** Arranges the final list of collections (the admin's navigation and dashboard show their groups in this order). */
  orderCollections?(collections: CollectionConfig[]): CollectionConfig[]
  /** Payload job tasks it runs (added to the config's jobs.tasks). */
  tasks?(options: ResolvedCwaOptions): TaskConfig[]
  /**
   * Views, navigation links and dashboard panels it adds to the admin panel
   * (merged into the config's admin.components), each naming a component of
   * its `admin/` folder as `payload-cwa/admin#Name`.
   */
  adminComponents?(
    options: ResolvedCwaOptions,
  ): Pick<NonNullable<NonNullable<Config['admin']>['components']>, 'views' | 'afterNavLinks' | 'beforeDashboard'>
  /** Its endpoints and hooks into the JSON-LD pipeline. */
  extension?: HydraExtension
  /**
   * Its operator commands (`npx payload cwa:<name>`), from its `commands/index.ts`: each one's name, what it does,
   * its arguments and a `load` of its module, imported only when it runs. cwaPlugin adds them to the config's
   * `bin`; the package's runner (commands/cli.ts) finds the built-in features' in their `commands/index.js`.
   */
  commands?: readonly CwaCommand[]
  /** Receives the write events of each committed transaction of this Payload instance (core/events). */
  onWrite?: WriteListener
  /**
   * Receives the write events of a transaction in that transaction, just
   * before it commits (derived data that must change with the write: the
   * read model's invalidation). Throwing rolls the write back.
   */
  onCommitting?: WriteListener
  /**
   * Database work that needs the schema (triggers, starting counts): run by
   * Payload's onInit, where the schema may not be migrated yet on a first
   * start, and again by `schemaReady` once it is. Idempotent.
   */
  onSchemaReady?(payload: Payload): Promise<void>
  /**
   * The tables it creates with SQL of its own (not Payload collections): kept out of Payload's development push,
   * which would otherwise offer to drop them on every start (core/devPush.ts).
   */
  ownTables?(options: ResolvedCwaOptions): string[]
}

/**
 * A feature's plugin options, from its options.ts: the keys it adds to
 * `CwaPluginOptions` (by declaration merging there) and how they resolve.
 * plugins/cwa/options.ts joins every feature's into `cwaOptionKeys` and
 * `resolveOptions`.
 */
export interface FeatureOptions<Keys extends KeySchema = KeySchema, Resolved extends object = object> {
  /**
   * The key schema of its options (typed there as `OptionKeys<Pick<CwaPluginOptions, ...>>`). A key belongs to one
   * feature, but a nested schema may be shared: `enabledComponents` holds one switch per built-in component type.
   */
  keys: Keys
  /** Its defaults: the resolved values of its keys (their part of `ResolvedCwaOptions`). */
  resolve(options: CwaPluginOptions): Resolved
  /** Its declaration (`defineOptions`, core/defineOptions.ts): each option's type, default and doc, for the docs. */
  spec?: OptionSpec
}

/**
 * The features in the order their hooks run: each after every feature its
 * `after` names (topological). Stable: features that declare nothing about
 * each other keep the order they were given in, so the order, and with it
 * the collections' and the extensions', is the same on every build. Refuses
 * two features of one name, an `after` that names no feature and a cycle,
 * with a message naming them.
 */
export function orderFeatures<F extends CwaFeature>(features: readonly F[]): F[] {
  const byName = new Map<string, F>()
  for (const feature of features) {
    if (byName.has(feature.name)) throw new Error(`cwa features: two features are named "${feature.name}"`)
    byName.set(feature.name, feature)
  }
  for (const feature of features) {
    for (const name of feature.after ?? []) {
      if (!byName.has(name))
        throw new Error(
          `cwa features: ${feature.name} must come after "${name}", which is not a feature (the features: ${[...byName.keys()].join(', ')})`,
        )
    }
  }
  const ordered: F[] = []
  const placed = new Set<string>()
  const waitsFor = (feature: F) => (feature.after ?? []).filter((name) => !placed.has(name))
  while (ordered.length < features.length) {
    const next = features.find((feature) => !placed.has(feature.name) && waitsFor(feature).length === 0)
    if (!next) {
      // Every feature left waits for another one left: follow the waits until one comes back.
      const path: string[] = []
      let current = features.find((feature) => !placed.has(feature.name))!
      while (!path.includes(current.name)) {
        path.push(current.name)
        current = byName.get(waitsFor(current)[0])!
      }
      const cycle = [...path.slice(path.indexOf(current.name)), current.name]
      throw new Error(
        `cwa features: their order is a cycle, no feature can come first: ${cycle.join(' must come after ')}`,
      )
    }
    ordered.push(next)
    placed.add(next.name)
  }
  return ordered
}

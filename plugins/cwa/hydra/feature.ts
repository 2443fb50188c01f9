import type { CollectionConfig, Config, Payload, TaskConfig } from 'payload'
import type { CoreContext } from '../core/context.js'
import type { WriteListener } from '../core/events/index.js'
import type { ResolvedCwaOptions } from '../core/options.js'
import type { HydraExtension } from './extension.js'

/**
 * A feature as cwaPlugin assembles it: what it adds to the Payload config
 * and to the JSON-LD pipeline. Each feature's index.ts exports one;
 * plugin.ts lists them, and the core names none.
 */
export interface CwaFeature {
  name: string
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
  /** Views, navigation links and dashboard panels it adds to the admin panel (merged into the config's admin.components). */
  adminComponents?(
    options: ResolvedCwaOptions,
  ): Pick<NonNullable<NonNullable<Config['admin']>['components']>, 'views' | 'afterNavLinks' | 'beforeDashboard'>
  /** Its endpoints and hooks into the JSON-LD pipeline. */
  extension?: HydraExtension
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
}

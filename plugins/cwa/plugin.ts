/**
 * cwaPlugin: the plugin's top file. It only assembles; what it assembles is
 *
 *   options.ts         the plugin options: the core's keys, then each feature's (the `options` of its declaration)
 *   features.ts        the features, one line each; their order comes from their declarations' `after`
 *   core/              the core collections (layouts, pages, component groups and positions), base fields, access
 *   features/<name>/   a feature, declared once in its index.ts (a CwaFeature, hydra/feature.ts): its options,
 *                      types, collections, collection changes, job tasks, admin views, extension (endpoints and
 *                      hooks), write listeners; beside it its public.ts (what index.ts, the front door, re-exports)
 *                      and its admin/ (the components admin.ts re-exports)
 *   session/           the session layer, declared like a feature
 *   commands/          the operator commands' assembly: each feature declares its own (`commands`), added to the
 *                      config's bin
 *
 * Adding a feature touches its folder and its line in features.ts (and, for
 * what it exports, one line in index.ts and one in admin.ts): docs/architecture.md,
 * "Adding a feature". Nothing below names a feature but the core's own uses
 * (the routes collection, readable labels, the shared-cache check).
 */
import type { CollectionConfig, Config, Payload } from 'payload'
import { cwaCommands } from './commands/list.js'
import { contentAccess } from './core/access.js'
import { componentGroupsCollection } from './core/collections/componentGroups.js'
import { electedAutoRun } from './core/jobs/runnerElection.js'
import { componentPositionsCollection } from './core/collections/componentPositions.js'
import { layoutsCollection } from './core/collections/layouts.js'
import { pagesCollection } from './core/collections/pages.js'
import type { CoreContext } from './core/context.js'
import { tableName } from './core/context.js'
import { coreOwnTables, withOwnTablesOutOfPush } from './core/devPush.js'
import { componentBaseFields } from './core/fields/componentBase.js'
import { singleParentHook } from './core/fields/parent.js'
import { pageDataBaseFields } from './core/fields/pageDataBase.js'
import { withWriteEvents } from './core/events/index.js'
import { installReadRouting, installReplicaWait } from './core/replicas/index.js'
import { installAfterCommit } from './core/transactions/index.js'
import { getCwaMeta } from './core/types.js'
import { usePreparedStatements } from './core/utils/preparedStatements.js'
import { withReadableLabels } from './features/adminTitles/index.js'
import { assertServerUrlForSharedCache } from './features/httpCache/index.js'
import { routesCollection } from './features/routes/index.js'
import { payloadApiAfterError, REFUSAL_LOG_LEVELS } from './hydra/payloadApiErrors.js'
import type { CwaFeature } from './hydra/feature.js'
import { type CwaPluginOptions, featuresOf, resolveOptions } from './options.js'

/**
 * The features' database work that needs the schema (the publishable
 * tables' row counts). Payload's onInit runs it; a host that migrates after
 * starting Payload (a first start) calls it again once the schema is there.
 */
export async function schemaReady(payload: Payload): Promise<void> {
  for (const feature of assembledFeatures(payload)) await feature.onSchemaReady?.(payload)
}

/** The features cwaPlugin assembled on this Payload's config (built-in and added), in their order. */
function assembledFeatures(payload: Payload): readonly CwaFeature[] {
  const cwa = payload.config.custom?.cwa as { features?: readonly CwaFeature[] } | undefined
  return cwa?.features ?? featuresOf()
}

/**
 * The component-based content API plugin. Adds the core collections
 * (layouts, pages, routes, component groups and positions), each feature's
 * collections and types (users and tokens, the built-in Form and Collection
 * components), completes every type declared with defineComponent /
 * definePageData (base fields, access, table prefix, then each feature's
 * changes) and registers the features' JSON-LD extensions.
 */
export const cwaPlugin =
  (pluginOptions: CwaPluginOptions = {}) =>
  (config: Config): Config => {
    const options = resolveOptions(pluginOptions)
    // The built-in features and the app's own (the `features` option), in their order.
    const features = featuresOf(pluginOptions)
    assertServerUrlForSharedCache(config, options)
    const declared = [...(config.collections ?? []), ...features.flatMap((feature) => feature.types?.(options) ?? [])]
    const slugsOf = (kind: string) => declared.filter((c) => getCwaMeta(c)?.kind === kind).map((c) => c.slug)
    const ctx: CoreContext = { options, componentSlugs: slugsOf('component'), pageDataSlugs: slugsOf('pageData') }
    // Labels first: the features (admin titles) name records by their type's label.
    const byFeatures = (collection: CollectionConfig) =>
      features.reduce(
        (out, feature) => feature.completeCollection?.(out, options) ?? out,
        withReadableLabels(collection),
      )

    // The contract's core resources, in the entrypoint's order (Route's behaviour is the routes feature's).
    const core = [
      layoutsCollection(ctx),
      pagesCollection(ctx),
      routesCollection(ctx),
      componentGroupsCollection(ctx),
      componentPositionsCollection(ctx),
    ]
    const own = features.flatMap((feature) => feature.collections?.(ctx, declared) ?? [])
    const tasks = features.flatMap((feature) => feature.tasks?.(options) ?? [])
    const extensions = [
      ...features.flatMap((feature) => (feature.extension ? [feature.extension] : [])),
      ...((config.custom?.cwa as { extensions?: unknown[] } | undefined)?.extensions ?? []),
    ]
    const ownTables = [
      ...coreOwnTables(options.tablePrefix),
      ...features.flatMap((feature) => feature.ownTables?.(options) ?? []),
    ]
    return {
      ...config,
      db: withOwnTablesOutOfPush(config.db, ownTables),
      admin: withAdminComponents({ ...config.admin, user: config.admin?.user ?? 'users' }, features, options),
      i18n: withAdminAccessMessage(config.i18n),
      hooks: { ...config.hooks, afterError: [...(config.hooks?.afterError ?? []), payloadApiAfterError] },
      // Expected refusals (a 412 conflict, a wrong password) are info lines, not ERRORs with a stack.
      loggingLevels: { ...REFUSAL_LOG_LEVELS, ...config.loggingLevels },
      onInit: async (payload) => {
        // Read replicas (when the adapter has them): signed-in and writing requests read from the primary, and a
        // commit waits for the replicas before its side effects (afterCommit) and its answer.
        installReadRouting(payload)
        installReplicaWait(payload, options.replicaWaitMs)
        installAfterCommit(payload)
        if (options.preparedStatements) usePreparedStatements(payload)
        await schemaReady(payload)
        await config.onInit?.(payload)
      },
      // One runner per database: the instance holding the jobs runner lock (core/jobs/runnerElection.ts).
      jobs:
        tasks.length > 0 || config.jobs?.autoRun
          ? {
              ...config.jobs,
              tasks: [...(config.jobs?.tasks ?? []), ...tasks],
              shouldAutoRun: electedAutoRun(config.jobs?.shouldAutoRun),
            }
          : config.jobs,
      // The operator commands (`npx payload cwa:<name>`), after the app's own: an app's command of the same key wins.
      bin: [
        ...(config.bin ?? []),
        ...cwaCommands(features).filter(({ key }) => !config.bin?.some((own) => own.key === key)),
      ],
      collections: features.reduce(
        (list, feature) => feature.orderCollections?.(list) ?? list,
        [
          ...own.map(withReadableLabels),
          ...core.map(byFeatures),
          // A feature's collection of a slug the app declared is the app's merged into the feature's (users).
          ...declared
            .filter((collection) => !own.some((merged) => merged.slug === collection.slug))
            .map((collection) => byFeatures(completeType(collection, ctx))),
        ].map(withResourceEvents),
      ),
      custom: {
        ...(config.custom ?? {}),
        cwa: {
          options,
          features,
          extensions,
          writeListeners: features.flatMap((feature) => (feature.onWrite ? [feature.onWrite] : [])),
          committingListeners: features.flatMap((feature) => (feature.onCommitting ? [feature.onCommitting] : [])),
        },
      },
    }
  }

/**
 * Only ROLE_ADMIN and above reach the admin panel (the users collection's
 * access.admin); a signed-in account without it sees Payload's "unauthorized"
 * page, whose heading then says why, in words.
 */
function withAdminAccessMessage(i18n: Config['i18n']): Config['i18n'] {
  const translations = (i18n?.translations ?? {}) as Record<string, Record<string, Record<string, string>>>
  const en = translations.en ?? {}
  return {
    ...i18n,
    translations: {
      ...translations,
      en: {
        ...en,
        error: {
          unauthorizedAdmin: 'This account may not use the admin panel (it needs ROLE_ADMIN or above)',
          ...(en.error ?? {}),
        },
      },
    },
  }
}

/** The features' admin views, navigation links and dashboard panels, after the app's own. */
function withAdminComponents(
  admin: NonNullable<Config['admin']>,
  features: readonly CwaFeature[],
  options: ReturnType<typeof resolveOptions>,
): NonNullable<Config['admin']> {
  const added = features.flatMap((feature) => (feature.adminComponents ? [feature.adminComponents(options)] : []))
  if (added.length === 0) return admin
  const components = admin.components ?? {}
  return {
    ...admin,
    components: {
      ...components,
      views: Object.assign({}, ...added.map((a) => a.views ?? {}), components.views ?? {}),
      afterNavLinks: [...(components.afterNavLinks ?? []), ...added.flatMap((a) => a.afterNavLinks ?? [])],
      beforeDashboard: [...(components.beforeDashboard ?? []), ...added.flatMap((a) => a.beforeDashboard ?? [])],
    },
  }
}

/** Every API resource (a collection carrying custom.cwa) reports its writes to the write-event bus (core/events). */
const withResourceEvents = (collection: CollectionConfig): CollectionConfig =>
  getCwaMeta(collection) ? withWriteEvents(collection) : collection

/** Adds the base fields, access rules and table name of a declared type. */
function completeType(collection: CollectionConfig, ctx: CoreContext): CollectionConfig {
  const meta = getCwaMeta(collection)
  if (!meta || (meta.kind !== 'component' && meta.kind !== 'pageData')) return collection
  const base = meta.kind === 'component' ? componentBaseFields() : pageDataBaseFields(ctx)
  const hooks = collection.hooks ?? {}
  return {
    ...collection,
    dbName: collection.dbName ?? tableName(ctx, meta.segment),
    access: { ...contentAccess(ctx.options), ...(collection.access ?? {}) },
    fields: [...base, ...collection.fields],
    hooks:
      meta.kind === 'pageData'
        ? { ...hooks, beforeValidate: [singleParentHook(), ...(hooks.beforeValidate ?? [])] }
        : hooks,
  }
}

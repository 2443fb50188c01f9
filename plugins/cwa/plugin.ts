import type { CollectionConfig, Config } from 'payload'
import { componentGroupsCollection } from './core/collections/componentGroups'
import { componentPositionsCollection } from './core/collections/componentPositions'
import { layoutsCollection } from './core/collections/layouts'
import { pagesCollection } from './core/collections/pages'
import { collectionComponent } from './features/collection'
import { formComponent, formsExtension } from './features/forms'
import { applyPublishable, publishableExtension } from './features/publishable'
import { applyRouteRules, routesCollection, routesExtension } from './features/routes'
import { usersCollection, usersExtension, userTokensCollection } from './features/users'
import { refreshTokensCollection, sessionExtension } from './session'
import { contentAccess } from './core/access'
import type { CoreContext } from './core/context'
import { tableName } from './core/context'
import { componentBaseFields } from './core/fields/componentBase'
import { singleParentHook } from './core/fields/parent'
import { pageDataBaseFields } from './core/fields/pageDataBase'
import { type CwaPluginOptions, resolveOptions, warnInertDeclarations } from './options'
import { getCwaMeta } from './core/types'

export { defineComponent, definePageData } from './core/define'
export type { ComponentDeclaration, PageDataDeclaration } from './core/define'
export type { CwaPluginOptions, SecurityExpression } from './options'
export { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from './options'

/**
 * The component-based content API plugin. Adds the core collections
 * (layouts, pages, routes, component groups and positions, users), the
 * built-in Form and Collection components, and completes every type declared
 * with defineComponent / definePageData (base fields, access, table prefix).
 */
export const cwaPlugin =
  (pluginOptions: CwaPluginOptions = {}) =>
  (config: Config): Config => {
    const options = resolveOptions(pluginOptions)
    const declared = [...(config.collections ?? [])]
    if (options.enabledComponents.form) declared.push(formComponent())
    if (options.enabledComponents.collection) declared.push(collectionComponent())

    const slugsOf = (kind: string) => declared.filter((c) => getCwaMeta(c)?.kind === kind).map((c) => c.slug)
    const ctx: CoreContext = { options, componentSlugs: slugsOf('component'), pageDataSlugs: slugsOf('pageData') }

    const completed = declared.map((collection) => applyRouteRules(applyPublishable(completeType(collection, ctx), options), options))
    const core = [
      layoutsCollection(ctx),
      pagesCollection(ctx),
      routesCollection(ctx),
      componentGroupsCollection(ctx),
      componentPositionsCollection(ctx),
    ].map((collection) => applyRouteRules(collection, options))
    const hasUsers = completed.some((c) => c.slug === 'users')
    return {
      ...config,
      admin: { ...config.admin, user: config.admin?.user ?? 'users' },
      onInit: async (payload) => {
        warnInertDeclarations(payload)
        await config.onInit?.(payload)
      },
      collections: [...(hasUsers ? [] : [usersCollection(ctx)]), refreshTokensCollection(ctx), userTokensCollection(ctx), ...core, ...completed],
      custom: {
        ...(config.custom ?? {}),
        cwa: { options, extensions: [sessionExtension, publishableExtension, routesExtension, usersExtension, formsExtension, ...(((config.custom?.cwa as { extensions?: unknown[] }) ?? {}).extensions ?? [])] },
      },
    }
  }

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

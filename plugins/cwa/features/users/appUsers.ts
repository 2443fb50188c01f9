import type { CollectionConfig, Field } from 'payload'
import type { CoreContext } from '../../core/context.js'
import { getCwaMeta } from '../../core/types.js'
import { usersCollection } from './collection.js'

/**
 * An app's own `users` collection (Payload's templates declare one: email auth, no username, no roles) merged with
 * the plugin's: the plugin's auth (sign-in by username, the API session), access rules, hooks, endpoints and fields
 * (username, roles, enabled, ...) with the app's own fields after them, its hooks after the plugin's, its admin
 * settings and labels. Its table stays the app's (`dbName`, else `users`): a database that already holds it gets the
 * plugin's columns, not a renamed table. What the merge cannot honour without weakening the plugin's rules is refused
 * at config time, naming what to change: the app's `access` rules, its `auth` options the plugin sets, and fields
 * named like the plugin's.
 */
export function mergeAppUsers(app: CollectionConfig, ctx: Pick<CoreContext, 'options'>): CollectionConfig {
  const plugin = usersCollection(ctx)
  const pluginAuth = plugin.auth as Record<string, unknown>
  const appAuth = typeof app.auth === 'object' ? (app.auth as Record<string, unknown>) : {}
  const names = (fields: readonly Field[]) => fields.flatMap((field) => ('name' in field ? [field.name] : []))
  const problems = [
    ...Object.keys(app.access ?? {}).map((key) => `access.${key}`),
    ...Object.keys(appAuth)
      .filter((key) => key in pluginAuth)
      .map((key) => `auth.${key}`),
    ...names(app.fields).filter((name) => ['username', ...names(plugin.fields)].includes(name)),
  ]
  if (problems.length > 0)
    throw new Error(
      `cwaPlugin: your \`users\` collection sets ${problems.join(', ')}, which the plugin's users collection sets itself ` +
        '(sign-in by username, the API session, roles and their access rules). Remove those from your collection ' +
        "(its other fields, hooks and admin settings are merged into the plugin's), or remove your `users` " +
        'collection from `collections` and let the plugin add its own (docs/adopting.md, "Your users collection").',
    )
  const hooks = { ...plugin.hooks } as Record<string, unknown[] | undefined>
  for (const [key, list] of Object.entries(app.hooks ?? {}))
    hooks[key] = [...(hooks[key] ?? []), ...((list as unknown[] | undefined) ?? [])]
  return {
    ...app,
    ...plugin,
    dbName: app.dbName ?? app.slug,
    labels: app.labels ?? plugin.labels,
    admin: { ...plugin.admin, ...app.admin },
    auth: { ...pluginAuth, ...appAuth },
    hooks,
    endpoints: [...(Array.isArray(plugin.endpoints) ? plugin.endpoints : []), ...(app.endpoints || [])],
    fields: [...plugin.fields, ...app.fields],
    custom: { ...app.custom, ...plugin.custom },
  }
}

/** The `users` collection the app declared without the plugin's meta (Payload's template's), if any. */
export const appUsersOf = (declared: readonly CollectionConfig[]): CollectionConfig | undefined =>
  declared.find((collection) => collection.slug === 'users' && getCwaMeta(collection) === undefined)

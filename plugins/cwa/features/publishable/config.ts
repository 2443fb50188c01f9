import type { Access, CollectionConfig, PayloadRequest, Where } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'
import { passes } from '../../core/roles.js'
import { getCwaMeta } from '../../core/types.js'
import type { Resource } from '../../core/registry.js'
import { publishableFields } from './fields.js'
import { type PublishableOptions, type ResolvedPublishable, resolvePublishable } from './options.js'
import { payloadApiHooks } from './payloadApis.js'
import { publishedWhere } from './state.js'

declare module '../../core/types.js' {
  interface FeatureDeclarations {
    /** Draft/publish twins: `true` or options (see PublishableOptions). */
    publishable?: boolean | PublishableOptions
  }
}

const RESOLVED = Symbol.for('cwa.publishable.resolved')

/** The resolved publishable settings of a resource, or null when it is not publishable. */
export function publishableOf(resource: Pick<Resource, 'meta'>): ResolvedPublishable | null {
  const value = resource.meta.publishable as (ResolvedPublishable & { [RESOLVED]?: true }) | undefined
  return value && (value as { [RESOLVED]?: true })[RESOLVED] ? value : null
}

/**
 * Switches a declared type to publishable: adds the three fields and narrows
 * Payload's read, update and delete access, so callers without the publish
 * permission never reach a draft through any API (JSON-LD, Payload REST,
 * admin panel).
 */
export function applyPublishable(collection: CollectionConfig, options: ResolvedCwaOptions): CollectionConfig {
  const meta = getCwaMeta(collection)
  if (!meta) return collection
  const names = resolvePublishable(meta.publishable, meta.shortName)
  if (!names) return collection
  Object.defineProperty(names, RESOLVED, { value: true, enumerable: false })
  /**
   * Callers without the publish permission may read, update and delete live
   * published records only: a draft does not exist for them, whatever API
   * they use (JSON-LD, Payload REST, admin panel).
   */
  const narrowed =
    (base: Access | undefined, fallback: Access): Access =>
    async (args) => {
      const result = await (base ?? fallback)(args)
      if (result === false) return false
      if (passes(options.publishable.permission, args.req.user, options.roleHierarchy)) return result
      const published = publishedWhere(names)
      return result === true ? published : { and: [result, published] }
    }
  const mayPublish = (user: PayloadRequest['user']) =>
    passes(options.publishable.permission, user, options.roleHierarchy)
  const hooks = payloadApiHooks({ slug: collection.slug, shortName: meta.shortName, names, mayPublish })
  return {
    ...collection,
    fields: [...collection.fields, ...publishableFields(collection.slug, names, mayPublish)],
    hooks: {
      ...collection.hooks,
      // Editors' writes through Payload's APIs take the state machine (payloadApis.ts).
      beforeOperation: [hooks.beforeOperation, ...(collection.hooks?.beforeOperation ?? [])],
      afterOperation: [...(collection.hooks?.afterOperation ?? []), hooks.afterOperation],
    },
    access: {
      ...collection.access,
      read: narrowed(collection.access?.read, () => true),
      // Payload's own default for writes: signed-in users.
      update: narrowed(collection.access?.update, ({ req }) => Boolean(req.user)),
      delete: narrowed(collection.access?.delete, ({ req }) => Boolean(req.user)),
    },
    admin: {
      ...collection.admin,
      // Twins are one record in the admin's lists: live records and draft-only records; a pending
      // draft is reached from its live record's edit view (the publishing panel).
      baseFilter: (args) => {
        const own = collection.admin?.baseFilter ?? collection.admin?.baseListFilter
        const twinFree: Where = { [names.publishedResource]: { exists: false } }
        const result = own?.(args)
        return result instanceof Promise
          ? result.then((where) => (where ? { and: [where, twinFree] } : twinFree))
          : result
            ? { and: [result, twinFree] }
            : twinFree
      },
      // The state badge is a column of every list (the publishedAt cell).
      defaultColumns: [
        ...(collection.admin?.defaultColumns ?? [collection.admin?.useAsTitle ?? 'id', 'updatedAt']).filter(
          (c) => c !== names.publishedAt,
        ),
        names.publishedAt,
      ],
    },
    custom: { ...collection.custom, cwa: { ...meta, publishable: names } },
  }
}

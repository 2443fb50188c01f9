import type { Access, CollectionConfig } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options'
import { passes } from '../../core/roles'
import { getCwaMeta } from '../../core/types'
import type { Resource } from '../../core/registry'
import { publishableFields } from './fields'
import { type PublishableOptions, type ResolvedPublishable, resolvePublishable } from './options'
import { publishedWhere } from './state'

declare module '../../core/types' {
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
  const narrowed = (base: Access | undefined, fallback: Access): Access => async (args) => {
    const result = await (base ?? fallback)(args)
    if (result === false) return false
    if (passes(options.publishable.permission, args.req.user, options.roleHierarchy)) return result
    const published = publishedWhere(names)
    return result === true ? published : { and: [result, published] }
  }
  return {
    ...collection,
    fields: [
      ...collection.fields,
      ...publishableFields(collection.slug, names, (user) => passes(options.publishable.permission, user as never, options.roleHierarchy)),
    ],
    access: {
      ...collection.access,
      read: narrowed(collection.access?.read, () => true),
      // Payload's own default for writes: signed-in users.
      update: narrowed(collection.access?.update, ({ req }) => Boolean(req.user)),
      delete: narrowed(collection.access?.delete, ({ req }) => Boolean(req.user)),
    },
    custom: { ...collection.custom, cwa: { ...meta, publishable: names } },
  }
}

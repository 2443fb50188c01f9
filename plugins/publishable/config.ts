import type { CollectionConfig } from 'payload'
import type { ResolvedCwaOptions } from '../cwa/options'
import { passes } from '../cwa/roles'
import { getCwaMeta } from '../cwa/types'
import type { Resource } from '../../src/hydra/registry'
import { publishableFields } from './fields'
import { type ResolvedPublishable, resolvePublishable } from './options'
import { publishedWhere } from './state'

const RESOLVED = Symbol.for('cwa.publishable.resolved')

/** The resolved publishable settings of a resource, or null when it is not publishable. */
export function publishableOf(resource: Pick<Resource, 'meta'>): ResolvedPublishable | null {
  const value = resource.meta.publishable as (ResolvedPublishable & { [RESOLVED]?: true }) | undefined
  return value && (value as { [RESOLVED]?: true })[RESOLVED] ? value : null
}

/**
 * Switches a declared type to publishable: adds the three fields and narrows
 * Payload's read access, so callers without the publish permission never
 * read a draft through any API (JSON-LD, Payload REST, admin panel).
 */
export function applyPublishable(collection: CollectionConfig, options: ResolvedCwaOptions): CollectionConfig {
  const meta = getCwaMeta(collection)
  if (!meta) return collection
  const names = resolvePublishable(meta.publishable, meta.shortName)
  if (!names) return collection
  Object.defineProperty(names, RESOLVED, { value: true, enumerable: false })
  const baseRead = collection.access?.read
  return {
    ...collection,
    fields: [...collection.fields, ...publishableFields(collection.slug, names)],
    access: {
      ...collection.access,
      read: async (args) => {
        const base = baseRead ? await baseRead(args) : true
        if (base === false) return false
        if (passes(options.publishable.permission, args.req.user, options.roleHierarchy)) return base
        const published = publishedWhere(names)
        return base === true ? published : { and: [base, published] }
      },
    },
    custom: { ...collection.custom, cwa: { ...meta, publishable: names } },
  }
}

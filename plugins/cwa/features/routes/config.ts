import type {
  Access,
  CollectionAfterChangeHook,
  CollectionAfterDeleteHook,
  CollectionConfig,
  Endpoint,
  Field,
  PayloadRequest,
  Where,
} from 'payload'
import { generateRouteEndpoint } from './handlers/generateEndpoint.js'
import { ADMIN_COMPONENTS } from '../../core/adminComponents.js'
import { relationId } from '../../core/utils/relations.js'
import type { ResolvedCwaOptions } from '../../core/options.js'
import { getCwaMeta } from '../../core/types.js'
import {
  contentItemAllowed,
  contentListAccess,
  forgetAccessDecisions,
  type GatedKind,
  mayCreateRoutable,
  routeReadAccess,
} from './access/policy.js'
import { recomputeEffectiveLiveAt, storedEffectiveLiveAt } from './access/recompute.js'

/** A string key: Payload copies req.context by its string keys only. */
const GRANT = 'cwaRoutesGrantedItem'

/**
 * Marks one record as already cleared by the item gate of the JSON-LD API
 * (which answers 401/403 itself): the list-style read that loads it then
 * lets it through, while collections stay narrowed to routed records.
 */
export function grantItem(req: PayloadRequest, slug: string, id: string): void {
  ;(req.context as Record<string, unknown>)[GRANT] = { slug, id }
}
function granted(req: PayloadRequest, slug: string): string | null {
  const grant = (req.context as Record<string, { slug: string; id: string } | undefined>)[GRANT]
  return grant && grant.slug === slug ? grant.id : null
}

/** Narrows an access function: both must allow; Where results are combined. */
function narrow(base: Access | undefined, rule: Access): Access {
  return async (args) => {
    const first = await (base ?? (() => true))(args)
    if (first === false) return false
    const second = await rule(args)
    if (second === false) return false
    if (second === true) return first
    return first === true ? second : { and: [first as Where, second as Where] }
  }
}

const changed = (doc: Record<string, unknown>, previous: Record<string, unknown> | undefined, fields: string[]) =>
  fields.some((field) => {
    const a = doc[field]
    const b = previous?.[field]
    if (field === 'liveAt')
      return (a ? new Date(a as string).getTime() : null) !== (b ? new Date(b as string).getTime() : null)
    return (
      relationId(a) !== relationId(b) ||
      (a as { relationTo?: string } | null)?.relationTo !== (b as { relationTo?: string } | null)?.relationTo
    )
  })

/**
 * Keeps Route.effectiveLiveAt current: after a write to `fields` (and, for
 * routes, every creation) and after every delete, in the writing transaction.
 */
function effectiveDateHooks(fields: string[], { routes }: { routes: boolean }) {
  const afterChange: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
    if ((operation === 'create' && routes) || (operation === 'update' && changed(doc, previousDoc, fields))) {
      await recomputeEffectiveLiveAt(req.payload, req)
      forgetAccessDecisions(req)
      // The written route answers with its new date (only where the caller may read the field).
      if (routes && 'effectiveLiveAt' in doc)
        return { ...doc, effectiveLiveAt: await storedEffectiveLiveAt(req, String(doc.id)) }
    }
    return doc
  }
  const afterDelete: CollectionAfterDeleteHook = async ({ req }) => {
    await recomputeEffectiveLiveAt(req.payload, req)
    forgetAccessDecisions(req)
  }
  return { afterChange, afterDelete }
}

function withHooks(
  collection: CollectionConfig,
  hooks: ReturnType<typeof effectiveDateHooks>,
): CollectionConfig['hooks'] {
  const existing = collection.hooks ?? {}
  return {
    ...existing,
    afterChange: [...(existing.afterChange ?? []), hooks.afterChange],
    afterDelete: [...(existing.afterDelete ?? []), hooks.afterDelete],
  }
}

function gatedKind(collection: CollectionConfig): GatedKind | 'route' | null {
  if (collection.slug === 'routes') return 'route'
  if (collection.slug === 'pages') return 'page'
  const kind = getCwaMeta(collection)?.kind
  return kind === 'pageData' ? 'pageData' : kind === 'component' ? 'component' : null
}

/** The route tree, an admin view at /admin/cwa/routes (admin/RouteTreeView.tsx). */
export const routeTreeView = () => ({
  views: {
    cwaRouteTree: { Component: `${ADMIN_COMPONENTS}#RouteTreeView`, path: '/cwa/routes' as const, exact: true },
  },
})

/**
 * Applies "Public access follows routes" and the route security rules to a
 * collection's Payload access, composed with what is already there
 * (publishable's narrowing included), so Payload's REST and GraphQL APIs,
 * the admin panel and the JSON-LD API all obey the same rules:
 * - routes: callers without the publish permission read live routes only;
 *   route_security rules filter every caller;
 * - pages, page data, components (when routable_security is set): a read by
 *   id is allowed when the record is reachable from a live route; lists hold
 *   records with their own live route (components: reachable or placed nowhere);
 * - creating a page or page data needs routable_security to pass.
 */
export function applyRouteRules(collection: CollectionConfig, options: ResolvedCwaOptions): CollectionConfig {
  const kind = gatedKind(collection)
  if (!kind) return collection
  if (kind === 'route') {
    return {
      ...collection,
      fields: withLivenessNote(collection.fields),
      access: { ...collection.access, read: narrow(collection.access?.read, ({ req }) => routeReadAccess(req)) },
      hooks: withHooks(collection, effectiveDateHooks(['liveAt', 'page', 'pageData'], { routes: true })),
    }
  }
  const slug = collection.slug
  const read: Access = async ({ req, id }) => {
    if (id !== undefined && id !== null) return contentItemAllowed(req, slug, kind, String(id))
    const where = await contentListAccess(req, slug, kind)
    const grant = granted(req, slug)
    return where === true || !grant ? where : { or: [where, { id: { equals: grant } }] }
  }
  const access = { ...collection.access, read: narrow(collection.access?.read, read) }
  if (kind === 'component') return { ...collection, access }
  access.create = narrow(collection.access?.create, ({ req }) => mayCreateRoutable(req.user, options))
  const generate = generateRouteField(collection, kind, options)
  return {
    ...collection,
    fields: [...collection.fields, generate.field],
    endpoints: collection.endpoints === false ? false : [...(collection.endpoints ?? []), generate.endpoint],
    access,
    hooks: withHooks(collection, effectiveDateHooks(['parentPage', 'parentPageData'], { routes: false })),
  }
}

/** The admin's note beside Route.liveAt: the effective (inherited) go-live date and what it means now. */
function withLivenessNote(fields: Field[]): Field[] {
  const note: Field = {
    name: 'liveness',
    type: 'ui',
    admin: { position: 'sidebar', disableListColumn: true, components: { Field: `${ADMIN_COMPONENTS}#RouteLiveness` } },
  }
  const at = fields.findIndex((field) => 'name' in field && field.name === 'liveAt')
  return at < 0 ? [...fields, note] : [...fields.slice(0, at + 1), note, ...fields.slice(at + 1)]
}

/** The admin's "Generate route from title" button on pages and page data, and its REST endpoint: the contract's route generation. */
function generateRouteField(
  collection: CollectionConfig,
  kind: GatedKind,
  options: ResolvedCwaOptions,
): { field: Field; endpoint: Endpoint } {
  const meta = getCwaMeta(collection)
  const property = kind === 'page' ? 'page' : 'pageData'
  const iriBase = `${options.apiPrefix}${meta?.pathPrefix ?? '/_'}/${meta?.segment ?? collection.slug}`
  return {
    field: {
      name: 'generateRoute',
      type: 'ui',
      admin: {
        position: 'sidebar',
        disableListColumn: true,
        components: { Field: { path: `${ADMIN_COMPONENTS}#GenerateRoute`, clientProps: { action: 'generate-route' } } },
      },
    },
    endpoint: generateRouteEndpoint(iriBase, property),
  }
}

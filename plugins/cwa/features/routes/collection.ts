import { type CollectionConfig, type CollectionSlug, type Field, ValidationError } from 'payload'
import { contentAccess } from '../../core/access.js'
import { type CoreContext, tableName } from '../../core/context.js'
import type { CwaResourceMeta } from '../../core/types.js'
import { relationId } from '../../core/utils/relations.js'
import { redirectCycleHook } from './hooks/redirectCycles.js'
import { reclaimOwnRedirectHook, renameRedirectHook } from './hooks/renameRedirect.js'
import { lockRouteTarget } from './structure/routeRecords.js'
import { structureSchema } from './structure/schema.js'
import { routeTargetIndexes } from './targetIndexes.js'
import { effectiveLiveAtField, liveAtField } from './fields.js'

/** URL path -> page, page data or redirect. Go-live rules live in plugins/routes. */
export function routesCollection(ctx: CoreContext): CollectionConfig {
  const cwa: CwaResourceMeta = {
    kind: 'core',
    shortName: 'Route',
    pathPrefix: '/_',
    segment: 'routes',
    showCreatedAt: true,
    search: ['path'],
    order: ['createdAt', 'path'],
    // Computed go-live date: served as _metadata.effectiveLiveAt (admins), not as a property.
    hidden: ['effectiveLiveAt'],
  }
  const target: Field[] = [{ name: 'page', type: 'relationship', relationTo: 'pages', index: true }]
  if (ctx.pageDataSlugs.length > 0) {
    target.push({ name: 'pageData', type: 'relationship', relationTo: ctx.pageDataSlugs as CollectionSlug[] })
  }
  return {
    slug: 'routes',
    dbName: tableName(ctx, 'routes'),
    admin: { useAsTitle: 'path', group: 'Structure', defaultColumns: ['path', 'page', 'redirect'] },
    access: contentAccess(ctx.options),
    fields: [
      {
        name: 'path',
        type: 'text',
        required: true,
        unique: true,
        validate: (value: unknown) =>
          value === null || value === undefined || value === ''
            ? 'This field is required.'
            : typeof value === 'string' && value.startsWith('/')
              ? true
              : 'The path must start with /.',
      },
      ...target,
      liveAtField(ctx.options),
      effectiveLiveAtField(ctx.options),
      { name: 'redirect', type: 'relationship', relationTo: 'routes' },
      { name: 'redirectedRoutes', type: 'join', collection: 'routes', on: 'redirect', defaultLimit: 0 },
    ],
    hooks: {
      beforeValidate: [routeTargetHook, redirectCycleHook],
      // A rename leaves the old path as a redirect to the route (hooks/renameRedirect.ts).
      beforeChange: [reclaimOwnRedirectHook],
      afterChange: [renameRedirectHook],
    },
    custom: { cwa },
  }
}

/** A route points at exactly one thing: a page, a page data record or another route. */
const routeTargetHook: import('payload').CollectionBeforeValidateHook = async ({ data, originalDoc, req }) => {
  const merged = { ...(originalDoc ?? {}), ...(data ?? {}) } as Record<string, unknown>
  // Reported together with the path's own problems, so one answer lists everything.
  const errors: Array<{ path: string; message: string }> = []
  if (merged.path == null || merged.path === '') errors.push({ path: 'path', message: 'This field is required.' })
  else if (typeof merged.path === 'string' && !merged.path.startsWith('/'))
    errors.push({ path: 'path', message: 'The path must start with /.' })
  const targets = ['page', 'pageData', 'redirect'].filter((key) => merged[key] != null && merged[key] !== '')
  if (targets.length === 0) errors.push({ path: 'page', message: 'A route needs a page, a pageData or a redirect.' })
  const self = originalDoc?.id
  if (self != null && merged.redirect != null && relationId(merged.redirect) === String(self)) {
    throw new ValidationError({
      errors: [{ path: 'redirect', message: 'A route cannot redirect to itself.' }],
    })
  }
  if (merged.page != null && merged.pageData != null) {
    errors.push({ path: 'pageData', message: 'A route points at a page or a pageData, not both.' })
  }
  if (errors.length === 0) errors.push(...(await oneRoutePerTarget(merged, data ?? {}, originalDoc?.id, req)))
  if (errors.length > 0) throw new ValidationError({ errors })
  return data
}

/**
 * A page or page data record has one route (Page.route is a single IRI);
 * another route may redirect to it. The check runs under a lock on the
 * record (lockRouteTarget), so concurrent creations for one record are
 * refused here one after the other; the unique indexes behind it answer a
 * write that bypasses the lock with the same violation on `page` /
 * `pageData` (routeTargetConstraints).
 */
async function oneRoutePerTarget(
  merged: Record<string, unknown>,
  sent: Record<string, unknown>,
  self: unknown,
  req: import('payload').PayloadRequest,
): Promise<Array<{ path: string; message: string }>> {
  const checks: Array<{ path: 'page' | 'pageData'; where: import('payload').Where }> = []
  const pageId = relationId(merged.page)
  if (pageId) checks.push({ path: 'page', where: { page: { equals: pageId } } })
  const pageDataId = relationId(merged.pageData)
  if (pageDataId) {
    const relationTo = (merged.pageData as { relationTo?: string }).relationTo
    checks.push({
      path: 'pageData',
      where: { and: [{ 'pageData.value': { equals: pageDataId } }, { 'pageData.relationTo': { equals: relationTo } }] },
    })
  }
  routeTargetConstraints(req.payload)
  const errors: Array<{ path: string; message: string }> = []
  // Only a write that sets the target can race another for it (a rename keeps it).
  if (pageId && sent.page != null) await lockRouteTarget(req.payload, req, { kind: 'pages', id: pageId })
  if (pageDataId && sent.pageData != null)
    await lockRouteTarget(req.payload, req, {
      kind: String((merged.pageData as { relationTo?: string }).relationTo),
      id: pageDataId,
    })
  for (const check of checks) {
    const where = self != null ? { and: [check.where, { id: { not_equals: String(self) } }] } : check.where
    const { totalDocs } = await req.payload.count({ collection: 'routes', where, req, overrideAccess: true })
    if (totalDocs > 0) errors.push({ path: check.path, message: 'This record already has a route.' })
  }
  return errors
}

/**
 * The unique indexes that hold one route per record in the database
 * (targetIndexes.ts: installed at start where missing; the reference site's
 * migration 20261123_141000_integrity creates them too): `<routes table>_page_unique` on the page column and
 * `<routes rels table>_<page data table>_unique` on each page data column of
 * the rels table (rows with path 'pageData'). Registered with the database
 * adapter, which turns a violation of one into a ValidationError on `page`
 * or `pageData` (a 422 / Payload's 400) instead of a column name.
 */
export function routeTargetConstraints(payload: import('payload').Payload): Record<string, 'page' | 'pageData'> {
  const names = Object.fromEntries(routeTargetIndexes(payload).map((index) => [index.name, index.field]))
  const routes = structureSchema(payload).tableName('routes')
  // Typed by @payloadcms/db-postgres's augmentation of DatabaseAdapter; another adapter has no fieldConstraints.
  const adapter: { fieldConstraints?: Record<string, Record<string, string>> } = payload.db
  if (adapter.fieldConstraints) Object.assign((adapter.fieldConstraints[routes] ??= {}), names)
  return names
}

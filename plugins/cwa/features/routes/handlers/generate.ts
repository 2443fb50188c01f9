import type { CollectionSlug, Where } from 'payload'
import type { HydraContext } from '../../../hydra/context.js'
import { violation, ViolationError } from '../../../hydra/errors.js'
import type { OperationResult } from '../../../hydra/operations.js'
import { findOne } from '../../../core/utils/findOne.js'
import { relationCollection, relationId } from '../../../core/utils/relations.js'
import type { GenerateRouteBody } from '../inputs.js'
import { routesResource } from '../structure/access.js'
import type { RecordRef } from '../structure/descendants.js'
import { lockRouteTarget, releaseRouteTarget, routeOfRecord } from '../structure/routeRecords.js'
import { freePath } from '../structure/freePath.js'
import { isRouteAdmin } from '../fields.js'
import { inTransaction } from '../structure/sql.js'

type TargetKey = 'page' | 'pageData'

interface Target extends RecordRef {
  key: TargetKey
}

const invalid = (path: string, message: string, code: string) => new ViolationError([violation(path, message, code)])

/** The pageData IRI of a body without page. */
function pageDataOf(body: GenerateRouteBody): string {
  if ('pageData' in body && body.pageData != null) return body.pageData
  throw new Error('The input lets no body through without page or pageData')
}

/**
 * The record the checked body names (its input: exactly one of page and pageData, a string): an IRI of a page
 * (page) or of page data (pageData).
 */
function parseTarget(ctx: HydraContext, body: GenerateRouteBody): Target {
  // The unused one may be sent as null.
  const page = 'page' in body ? body.page : null
  const [key, value] = page != null ? (['page', page] as const) : (['pageData', pageDataOf(body)] as const)
  const parsed = ctx.registry.parseIri(value)
  if (!parsed) throw invalid(key, `Invalid IRI "${value}".`, 'invalid_iri')
  const accepted = key === 'page' ? parsed.resource.slug === 'pages' : parsed.resource.meta.kind === 'pageData'
  if (!accepted || !parsed.id)
    throw invalid(key, `The IRI "${value}" does not point to an accepted type.`, 'invalid_iri_type')
  return { key, kind: parsed.resource.slug, id: parsed.id }
}

/** The parent a record names (parentPage or parentPageData), or null. */
function parentOf(record: Record<string, unknown>): RecordRef | null {
  const page = relationId(record.parentPage)
  if (page) return { kind: 'pages', id: page }
  const data = relationId(record.parentPageData)
  const kind = relationCollection(record.parentPageData)
  return data && kind ? { kind, id: data } : null
}

function titleOf(target: Target, record: Record<string, unknown>): string {
  const title = typeof record.title === 'string' ? record.title.trim() : ''
  if (title || target.kind !== 'pages') return title
  return typeof record.reference === 'string' ? record.reference : ''
}

/**
 * POST /_/routes/generate: a route for a page or page data record, at its
 * parent's route path plus its title slug (or what the configured
 * RouteGenerator returns), with a `-1`, `-2`... suffix while that path is
 * taken. A record that already had a route keeps one route: the old route
 * becomes a redirect to the new one, in the same transaction (a redirect of
 * the record already at the new path is taken back instead: 200). 422 when
 * the record has a parent without a route. Its caller checked the access (the endpoint's `security`) and
 * the body's shape (its input).
 */
export async function generateRoute(
  ctx: HydraContext,
  body: GenerateRouteBody,
  { firstRouteWaits = false }: GenerateOptions = {},
): Promise<OperationResult> {
  const target = parseTarget(ctx, body)
  const { payload, req } = ctx
  const resource = routesResource(ctx)
  return inTransaction(req, async () => {
    // Concurrent generations for one record run one after the other: the later ones find the route
    // the first made (200, nothing changes) instead of racing it.
    await lockRouteTarget(payload, req, target)
    const record = await findOne(payload, {
      collection: target.kind,
      where: { id: { equals: target.id } },
      overrideAccess: true,
      req,
    })
    if (!record)
      throw invalid(target.key, `Item not found for "${ctx.registry.itemIri(target.kind, target.id)}".`, 'not_found')
    const parent = parentOf(record)
    const parentRoute = parent ? await routeOfRecord(payload, req, parent) : null
    if (parent && !parentRoute) {
      throw invalid(
        target.key,
        `The parent ${ctx.registry.itemIri(parent.kind, parent.id)} has no route: generate or create its route first.`,
        'unrouted_parent',
      )
    }
    const generated = await ctx.options.routeGenerator.generatePath({
      title: titleOf(target, record),
      parentPath: parentRoute?.path ?? null,
      record,
      collection: target.kind,
    })
    if (typeof generated !== 'string' || !generated.startsWith('/')) {
      throw new Error(`The route generator returned "${String(generated)}": a path must start with /`)
    }
    const current = await findOne(payload, {
      collection: 'routes',
      where: routeWhere(target),
      overrideAccess: true,
      req,
    })
    // A redirect left at this very path by an earlier rename of the record is taken back (renaming back
    // gives the old path again, not "-1").
    const reclaimed = current
      ? await findOne(payload, {
          collection: 'routes',
          where: { and: [{ path: { equals: generated } }, { redirect: { equals: current.id } }] },
          overrideAccess: true,
          req,
        })
      : null
    const path = reclaimed ? generated : await freePath(payload, req, generated, current ? String(current.id) : null)
    if (current && current.path === path) {
      // Already there: nothing to move, nothing to redirect.
      return { status: 200, item: { resource, doc: current } }
    }
    const data: Record<string, unknown> = {
      [target.key]: target.key === 'page' ? target.id : { relationTo: target.kind, value: target.id },
    }
    // The record keeps its go-live date: regenerating the path of an offline page must not publish it.
    if (current && 'liveAt' in current) data.liveAt = current.liveAt ?? null
    if (current) {
      // One route per record: the old route lets go of the record before the new one takes it.
      await releaseRouteTarget(payload, req, String(current.id))
    }
    const waits = firstRouteWaits && !current
    // A caller who may not write liveAt cannot make the route wait: the service does, in the same transaction.
    if (waits && isRouteAdmin(req.user, ctx.options)) data.liveAt = null
    const write = { collection: 'routes' as CollectionSlug, depth: 0, overrideAccess: false, req } as const
    let served = reclaimed
      ? await payload.update({ ...write, id: String(reclaimed.id), data: { ...data, redirect: null } })
      : await payload.create({ ...write, data: { ...data, path } })
    if (waits && !('liveAt' in data))
      served = await payload.update({ ...write, id: String(served.id), data: { liveAt: null }, overrideAccess: true })
    if (current) await payload.update({ ...write, id: String(current.id), data: { redirect: served.id } })
    payload.logger.info(
      { route: served.id, path, record: target.id, replaced: current?.id ?? null, reclaimed: !!reclaimed, waits },
      'route generated',
    )
    const item = { resource, doc: served }
    return reclaimed
      ? { status: 200, item }
      : { status: 201, item, headers: { Location: ctx.registry.itemIri(resource, String(served.id)) } }
  })
}

export interface GenerateOptions {
  /**
   * A record's first route waits for the page's publication (its liveAt empty) instead of going live at once: the
   * admin panel's generation, where "Publish page" is the page's moment (docs/publishing.md). The contract's
   * POST /_/routes/generate leaves it off (a created route is live).
   */
  firstRouteWaits?: boolean
}

function routeWhere(target: Target): Where {
  return target.key === 'page'
    ? { page: { equals: target.id } }
    : { and: [{ 'pageData.value': { equals: target.id } }, { 'pageData.relationTo': { equals: target.kind } }] }
}

import type { Where } from 'payload'
import { findOne } from '../../core/utils/findOne.js'
import { internalFind } from '../../core/utils/internalFind.js'
import type { HydraContext } from '../../hydra/context.js'
import type { Resource } from '../../core/registry.js'
import { type Doc, type ItemStore, withTotal } from '../../hydra/store.js'
import { passes } from '../../core/roles.js'
import type { ResolvedPublishable } from './options.js'
import { draftOf, publicationState, publishedWhere, twinOf } from './state.js'
import { takeoverDue } from './schedule.js'
import { publishableCounts } from './counts.js'
import type { CollectionQuery } from '../../hydra/filters.js'
import { expectedFromIfMatch } from '../../hydra/version.js'
import { createRecord, deleteRecord, promoteDueDraft, type PublishContext, updateRecord } from './stateMachine.js'

export type ReadMode = 'auto' | 'published' | 'draft'

/** `?published=true|false` selects a version explicitly; otherwise the caller's default. */
export function readMode(query: URLSearchParams): ReadMode {
  const value = query.get('published')
  return value === 'true' || value === '1' ? 'published' : value === 'false' || value === '0' ? 'draft' : 'auto'
}

export function publishContext(resource: Resource, names: ResolvedPublishable, ctx: HydraContext): PublishContext {
  return {
    payload: ctx.payload,
    req: ctx.req,
    slug: resource.slug,
    shortName: resource.meta.shortName,
    names,
    permitted: passes(ctx.options.publishable.permission, ctx.user, ctx.options.roleHierarchy),
  }
}

const and = (...clauses: Array<Where | null | undefined>): Where => {
  const list = clauses.filter((c): c is Where => !!c && Object.keys(c).length > 0)
  return list.length === 0 ? {} : list.length === 1 ? list[0]! : { and: list }
}

/** Whether `where` is exactly publishedWhere (at any moment): what the narrowed read access gives a caller who sees live records only. */
function isPublishedWhere(where: unknown, names: ResolvedPublishable): boolean {
  const clauses = (where as { and?: unknown[] } | null)?.and
  if (!where || Object.keys(where).length !== 1 || !Array.isArray(clauses) || clauses.length !== 2) return false
  const [date, twin] = clauses as Array<Record<string, Record<string, unknown>>>
  return (
    Object.keys(date ?? {}).length === 1 &&
    Object.keys(date?.[names.publishedAt] ?? {}).join() === 'less_than_equal' &&
    typeof date?.[names.publishedAt]?.less_than_equal === 'string' &&
    JSON.stringify(twin) === JSON.stringify({ [names.publishedResource]: { exists: false } })
  )
}

/**
 * A whole collection's total from the maintained counts (counts.ts) instead
 * of a count over its rows, or null where they do not describe the list
 * exactly: a filter or search, a read access that narrows beyond the
 * publishable rule (an author's own rule, route security), drafts only.
 * `scope`: 'live' for callers served live records; the draft twins for a
 * permitted caller's default list (each family once: the published records
 * they shadow are left out); null when no count applies.
 */
async function maintainedTotal(
  ctx: HydraContext,
  resource: Resource,
  names: ResolvedPublishable,
  query: CollectionQuery,
  now: Date,
  scope: 'live' | Doc[] | null,
): Promise<number | null> {
  if (scope === null || !(query.limit > 0) || Object.keys(query.where ?? {}).length > 0) return null
  const read = ctx.payload.collections[resource.slug]?.config.access.read
  if (!read) return null
  const access = await read({ req: ctx.req })
  if (access !== true && !(scope === 'live' && isPublishedWhere(access, names))) return null
  const counts = await publishableCounts(ctx.payload, resource, names, now, ctx.req)
  if (!counts) return null
  if (scope === 'live') return counts.live
  return counts.total - new Set(scope.map((draft) => twinOf(draft, names)).filter(Boolean)).size
}

/**
 * Reads and writes of a publishable resource: draft routing by caller and
 * `?published=`, twins maintained by the state machine. Each read costs at
 * most one query more than a plain read.
 */
export function publishableStore(
  resource: Resource,
  names: ResolvedPublishable,
  ctx: HydraContext,
  fallback: ItemStore,
): ItemStore {
  const pctx = publishContext(resource, names, ctx)
  const mode = readMode(ctx.query)
  const promote = (draft: Doc) => promoteDueDraft(pctx, String(draft.id))
  const isDue = (doc: Doc | null | undefined, now: Date) =>
    !!doc?.[names.publishedAt] && new Date(doc[names.publishedAt] as string) <= now
  /** Twin lookups ignore the caller's access: they only decide what the caller is then served. */
  const loadAny = (id: string): Promise<Doc | null> =>
    findOne(ctx.payload, {
      collection: resource.slug,
      where: { id: { equals: id } },
      overrideAccess: true,
      req: ctx.req,
    })
  /** The draft twin of a published record, whatever the caller may read (only its date is needed). */
  const draftDateOf = async (publishedId: string): Promise<Doc | null> =>
    (
      await internalFind(ctx.payload, {
        collection: resource.slug,
        where: { [names.publishedResource]: { equals: publishedId } },
        select: { [names.publishedAt]: true },
        limit: 1,
        req: ctx.req,
      })
    )[0] ?? null

  return {
    async list(query) {
      const now = new Date()
      // One query: every draft twin. It gives the published records a permitted caller sees through
      // their drafts, and the scheduled drafts whose date has come (promoted before the page is read).
      const findTwins = async () =>
        internalFind(ctx.payload, {
          collection: resource.slug,
          where: { [names.publishedResource]: { exists: true } },
          select: { [names.publishedResource]: true, [names.publishedAt]: true },
          req: ctx.req,
        })
      // Callers who are served published records only need the twins when a takeover is due.
      const needTwins = (pctx.permitted && mode === 'auto') || (await takeoverDue(ctx.payload, resource, names, now))
      let twins = needTwins ? await findTwins() : []
      const due = twins.filter((draft) => isDue(draft, now))
      if (due.length > 0) {
        for (const draft of due) await promote(draft)
        // Promoted here or by a concurrent request: read the twins again (rare: only when a date has come).
        twins = await findTwins()
      }
      let narrowing: Where | null
      if (!pctx.permitted || mode === 'published') narrowing = publishedWhere(names, now)
      else if (mode === 'draft') {
        narrowing = {
          or: [
            { [names.publishedAt]: { exists: false } },
            { [names.publishedAt]: { greater_than: now.toISOString() } },
            { [names.publishedResource]: { exists: true } },
          ],
        }
      } else {
        // Each family once: a published record with a draft is listed through its draft.
        const shadowed = twins.map((d) => twinOf(d, names)).filter((id): id is string => !!id)
        narrowing = shadowed.length > 0 ? { id: { not_in: shadowed } } : null
      }
      const merged = { ...query, where: and(query.where, narrowing) }
      const total = await maintainedTotal(
        ctx,
        resource,
        names,
        query,
        now,
        !pctx.permitted || mode === 'published' ? 'live' : mode === 'auto' ? twins : null,
      )
      return total === null
        ? fallback.list(merged)
        : withTotal(await fallback.list(merged, { count: false }), total, query)
    },

    async load(id, where) {
      const now = new Date()
      let doc = await fallback.load(id, where)
      if (!doc) return null
      const twinId = twinOf(doc, names)
      if (twinId) {
        // A draft (only a permitted caller gets here). Due, it replaces its twin now, and the twin is served
        // (also when a concurrent request promoted it first; a draft failing publish validation stays).
        if (isDue(doc, now)) {
          await promote(doc)
          doc = await fallback.load(id, where)
          if (!doc) return fallback.load(twinId, where)
        }
        if (mode === 'published') return fallback.load(twinId, where)
        return doc
      }
      // A published record (or a draft without twin). Its draft, whoever asks: a due one replaces it now.
      let draft: Doc | null = null
      if (publicationState(doc, names, now) === 'published') {
        const draftId = pctx.permitted ? draftOf(doc, names) : null
        draft = pctx.permitted
          ? draftId
            ? await loadAny(draftId)
            : null
          : (await takeoverDue(ctx.payload, resource, names, now))
            ? await draftDateOf(id)
            : null
        if (draft && isDue(draft, now)) {
          const promoted = await promote(draft)
          // Read again: promoted here or by a concurrent request, the published record now holds the content.
          doc = await fallback.load(id, where)
          if (!doc) return null
          draft = !promoted && pctx.permitted ? await loadAny(String(draft.id)) : null
        }
      }
      const state = publicationState(doc, names, now)
      if (!pctx.permitted) return state === 'published' ? doc : null
      if (mode === 'published') return state === 'published' ? doc : null
      return draft ?? doc
    },

    create: (data) => createRecord(pctx, data),
    // The request's If-Match names what the writer read (a writer without one is not checked).
    update: (id, data) =>
      updateRecord({ ...pctx, expected: expectedFromIfMatch(ctx.headers.get('if-match')) }, id, data),
    remove: (id) => deleteRecord(pctx, id, { mode }),
  }
}

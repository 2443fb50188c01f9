import type { CollectionSlug, PaginatedDocs } from 'payload'
import type { HydraContext } from './context.js'
import type { Resource } from '../core/registry.js'
import type { Doc, ItemStore } from './itemStore.js'
import { claimedStore } from './extensions/requestHooks.js'
import type { CollectionQuery } from './filters.js'
import { inTransaction, runSql, sql } from '../core/utils/sql.js'
import { tableNameOf } from '../core/utils/schema.js'
import { lockBeforeRow } from '../core/utils/groupOrder.js'
import { assertCurrent, expectedFromIfMatch } from './version.js'

export type { Doc, ItemStore }

export function payloadStore(resource: Resource, ctx: HydraContext): ItemStore {
  const collection = resource.slug as CollectionSlug
  const common = { depth: 0, overrideAccess: false, req: ctx.req } as const
  return {
    list: async (query, options) =>
      await ctx.payload.find({
        collection,
        ...common,
        where: query.where,
        sort: query.sort,
        page: query.page,
        limit: query.limit,
        pagination: options?.count !== false,
      }),
    async load(id, where) {
      const result = await ctx.payload.find({
        collection,
        ...common,
        where: { and: [{ id: { equals: id } }, ...where] },
        limit: 1,
        pagination: false,
      })
      return result.docs[0] ?? null
    },
    create: async (data) => await ctx.payload.create({ collection, ...common, data }),
    async update(id, data) {
      const write = async () => await ctx.payload.update({ collection, ...common, id, data })
      const expected = expectedFromIfMatch(ctx.headers.get('if-match'))
      const table = expected ? tableNameOf(ctx.payload, resource.slug) : null
      if (!expected || !table) return write()
      // If-Match: the row is locked, compared with what the writer read, then written, in one transaction.
      return inTransaction(ctx.req, async () => {
        // The locks the write's own hooks take before any row come first (a position: its group's order): the one order every writer takes them in.
        await lockBeforeRow(ctx.req, resource.slug, id)
        await runSql(ctx.payload, sql`SELECT 1 FROM ${sql.identifier(table)} WHERE id = ${id} FOR UPDATE`, ctx.req)
        const current = await this.load(id, [])
        // A record the caller may not see: Payload's own answer (404), no word on its version.
        if (current) assertCurrent(expected, current, id)
        return write()
      })
    },
    remove: async (id) => {
      await ctx.payload.delete({ collection, ...common, id })
    },
  }
}

/** The store of a resource for this request: the first extension that claims it, else Payload's. */
export function storeFor(resource: Resource, ctx: HydraContext): ItemStore {
  return claimedStore(resource, ctx, () => payloadStore(resource, ctx)) ?? payloadStore(resource, ctx)
}

/** A page read without its count (`list(query, { count: false })`) with Payload's paging fields, from a total known otherwise. */
export function withTotal(result: PaginatedDocs<Doc>, total: number, query: CollectionQuery): PaginatedDocs<Doc> {
  const page = query.page
  const totalPages = Math.ceil(total / query.limit)
  return {
    ...result,
    totalDocs: total,
    totalPages,
    page,
    limit: query.limit,
    pagingCounter: (page - 1) * query.limit + 1,
    hasPrevPage: page > 1,
    hasNextPage: page < totalPages,
    prevPage: page > 1 ? page - 1 : null,
    nextPage: page < totalPages ? page + 1 : null,
  }
}

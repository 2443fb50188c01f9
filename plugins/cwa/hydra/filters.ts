import type { Sort, Where } from 'payload'
import { badRequest, HttpError, violation, ViolationError } from './errors.js'
import type { Resource } from '../core/registry.js'

export const DEFAULT_ITEMS_PER_PAGE = 30
export const DEFAULT_MAX_ITEMS_PER_PAGE = 100
const MAX_PAGE = 1_000_000

export interface CollectionQuery {
  where: Where
  sort: Sort
  page: number
  limit: number
}

const TRUE = new Set(['true', '1'])
const FALSE = new Set(['false', '0'])

/**
 * Payload's `contains` becomes `ILIKE '%term%'` without escaping the term, so
 * `%` and `_` would act as wildcards (`?search=%` matching everything). The
 * search is a plain partial match: escape them (and the escape character
 * itself) so they match literally. PostgreSQL's default LIKE escape is `\`.
 */
function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/**
 * The filters every resource declares, applied to collections and to item
 * requests alike: one case-insensitive partial `search`, boolean filters.
 * Per-field parameters are not filters and are ignored.
 */
export function filterWhere(resource: Resource, query: URLSearchParams): Where[] {
  const { meta } = resource
  const clauses: Where[] = []
  const search = query.get('search')
  if (search && (meta.search?.length ?? 0) > 0) {
    const aliases = meta.aliases ?? {}
    const term = likeLiteral(search)
    clauses.push({ or: meta.search!.map((field) => ({ [aliases[field] ?? field]: { contains: term } })) })
  }
  for (const name of meta.booleanFilters ?? []) {
    const values = [...query.getAll(name), ...query.getAll(`${name}[]`)]
      .map((v) => v.toLowerCase())
      .map((v) => (TRUE.has(v) ? true : FALSE.has(v) ? false : null))
      .filter((v): v is boolean => v !== null)
    const distinct = [...new Set(values)]
    if (distinct.length === 1) clauses.push({ [name]: { equals: distinct[0] } })
    // both true and false: no narrowing
  }
  return clauses
}

/** order[field]=asc|desc, in the order given; the resource's default order otherwise. */
export function parseOrder(resource: Resource, query: URLSearchParams): Sort {
  const { meta } = resource
  const allowed = new Set(meta.order ?? [])
  const sort: string[] = []
  for (const [key, raw] of query.entries()) {
    const match = /^order\[([^\]]*)\]$/.exec(key)
    if (!match) continue
    const field = match[1]!
    const direction = raw.toLowerCase()
    if (!allowed.has(field)) throw badRequest(`Unknown order property "${field}".`)
    if (direction !== 'asc' && direction !== 'desc') {
      throw new ViolationError([
        violation(`order[${field}]`, 'The order direction must be "asc" or "desc".', 'invalid_order_direction'),
      ])
    }
    const name = meta.aliases?.[field] ?? field
    sort.push(direction === 'desc' ? `-${name}` : name)
  }
  if (sort.length === 0) {
    const defaults = Object.entries(meta.defaultOrder ?? { createdAt: 'desc' })
    for (const [field, direction] of defaults) sort.push(direction === 'desc' ? `-${field}` : field)
  }
  // Rows equal on every sort key come back in no fixed order, and LIMIT/OFFSET
  // pages are separate queries: without a unique last key, paging could skip
  // or repeat a record. The id makes the order total (same direction as the last key).
  if (!sort.some((key) => key === 'id' || key === '-id'))
    sort.push(sort[sort.length - 1]!.startsWith('-') ? '-id' : 'id')
  return sort
}

function positiveInt(value: string, name: string, { min, max }: { min: number; max: number }): number {
  if (!/^\d+$/.test(value)) throw badRequest(`"${name}" must be an integer.`)
  const number = Number(value)
  if (number < min) throw badRequest(`"${name}" must not be less than ${min}.`)
  if (number > max) throw badRequest(`"${name}" must not be greater than ${max}.`)
  return number
}

/** Paging: `page` (from 1) and `itemsPerPage` (only where the resource allows it, bounded). */
export function parsePaging(resource: Resource, query: URLSearchParams): { page: number; limit: number } {
  const { meta } = resource
  const page = query.has('page') ? positiveInt(query.get('page')!, 'page', { min: 1, max: MAX_PAGE }) : 1
  let limit = meta.itemsPerPage ?? DEFAULT_ITEMS_PER_PAGE
  if (query.has('itemsPerPage') && (meta.clientItemsPerPage ?? true)) {
    const max = meta.maxItemsPerPage ?? DEFAULT_MAX_ITEMS_PER_PAGE
    limit = positiveInt(query.get('itemsPerPage')!, 'itemsPerPage', { min: 1, max })
  }
  return { page, limit }
}

export function parseCollectionQuery(resource: Resource, query: URLSearchParams, extra: Where[] = []): CollectionQuery {
  const clauses = [...filterWhere(resource, query), ...extra]
  return {
    where: clauses.length > 0 ? { and: clauses } : {},
    sort: parseOrder(resource, query),
    ...parsePaging(resource, query),
  }
}

export { HttpError }

import type { PaginatedDocs } from 'payload'
import type { JsonLdObject } from './extension.js'

/**
 * The `view` of a Hydra collection (its PartialCollectionView): the
 * normalizer writes it, and a Collection component pages its proxied
 * collection through its own IRI with it.
 */

function pageUrl(base: string, query: URLSearchParams, page: number | null): string {
  const params = new URLSearchParams(query)
  if (page === null) params.delete('page')
  else params.set('page', String(page))
  const qs = params.toString()
  return qs ? `${base}?${qs}` : base
}

/** The `view` of a collection: @id of this page plus first/last/previous/next where they apply. */
export function partialView(
  base: string,
  query: URLSearchParams,
  result: Pick<PaginatedDocs, 'page' | 'totalPages' | 'hasNextPage' | 'hasPrevPage'>,
  paginated: boolean,
): JsonLdObject {
  if (!paginated) return { '@id': pageUrl(base, query, null), '@type': 'PartialCollectionView' }
  const page = result.page ?? 1
  const last = Math.max(result.totalPages ?? 1, 1)
  const view: JsonLdObject = {
    '@id': pageUrl(base, query, page),
    '@type': 'PartialCollectionView',
    first: pageUrl(base, query, 1),
    last: pageUrl(base, query, last),
  }
  if (page > 1) view.previous = pageUrl(base, query, Math.min(page - 1, last))
  if (page < last) view.next = pageUrl(base, query, page + 1)
  return view
}

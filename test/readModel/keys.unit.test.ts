/**
 * Issue 38, the database-free tier: the keys of the read model's store (features/readModel/key.ts: which spellings
 * of a read share a stored answer, and how each ranks) and the tags a route write drops (features/routes/pathTags.ts),
 * on a Payload config built by hand: no Payload started, no database.
 */
import { describe, expect, it } from '@jest/globals'
import { PLAIN, readShape, STRAY, VARIANT } from '../../plugins/cwa/dist/features/readModel/key.js'
import { bucketsOf } from '../../plugins/cwa/dist/features/readModel/tags.js'
import { routePathTagsOf } from '../../plugins/cwa/dist/features/routes/index.js'
import { ROUTE_PATHS_TAG, routePathTag } from '../../plugins/cwa/dist/features/routes/pathTags.js'
import { FENCE_BUCKETS } from '../../plugins/cwa/dist/features/readModel/schema.js'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'

const ID = '0b7a2c1e-5d4f-4a3b-9c8d-7e6f5a4b3c2d'

/** What readShape reads of a Payload: its config's resolved options, resources and SERVER_URL. */
function site({ serverURL = '', allowedOrigins = [] as string[], websiteName = 'Site' } = {}) {
  const collection = (slug: string, kind: string, shortName: string, pathPrefix: string) => ({
    slug,
    fields: [],
    custom: { cwa: { kind, shortName, pathPrefix, segment: slug } },
  })
  return {
    config: {
      serverURL,
      custom: { cwa: { options: resolveOptions({ websiteName, cors: { allowedOrigins } }) } },
      collections: [
        collection('layouts', 'core', 'Layout', '/_'),
        collection('blog_article_datas', 'pageData', 'BlogArticleData', '/page_data'),
      ],
    },
  }
}

/** The shape of an anonymous GET of `path` (under the API prefix), as the store sees it. */
function shape(
  payload: ReturnType<typeof site>,
  path: string,
  { origin = 'http://localhost:3000', query = '', header }: { origin?: string; query?: string; header?: string } = {},
) {
  const headers = new Headers(header === undefined ? {} : { path: header })
  const url = new URL(`${origin}/_api${path}${query}`)
  return readShape({ payload: payload as never, method: 'GET', path, url, headers })
}

describe('the key of a stored read', () => {
  const payload = site()

  it("is the same for the spellings the API answers with the same bytes: an escape's hex case, an item UUID's case", () => {
    expect(shape(payload, '/_/routes//a%2fb').key).toBe(shape(payload, '/_/routes//a%2Fb').key)
    expect(shape(payload, `/_/layouts/${ID.toUpperCase()}`).key).toBe(shape(payload, `/_/layouts/${ID}`).key)
    // A UUID that names no resource's item is a path like any other: its case stays.
    expect(shape(payload, `/_/unknown/${ID.toUpperCase()}`).key).not.toBe(shape(payload, `/_/unknown/${ID}`).key)
  })

  it('differs by query string, by path header, and (without SERVER_URL) by origin', () => {
    const plain = shape(payload, '/_/layouts').key
    expect(shape(payload, '/_/layouts', { query: '?page=2' }).key).not.toBe(plain)
    expect(shape(payload, '/_/layouts', { header: '/about' }).key).not.toBe(plain)
    expect(shape(payload, '/_/layouts', { origin: 'http://127.0.0.1:3000' }).key).not.toBe(plain)
    const withServerUrl = site({ serverURL: 'https://api.example.com' })
    expect(shape(withServerUrl, '/_/layouts', { origin: 'http://127.0.0.1:3000' }).key).toBe(
      shape(withServerUrl, '/_/layouts').key,
    )
  })

  it('names a page data IRI in the path header by its record, in any spelling; a site path as it was sent', () => {
    const canonical = shape(payload, '/_/layouts', { header: `/_api/page_data/blog_article_datas/${ID}` }).key
    expect(shape(payload, '/_/layouts', { header: `/page_data/blog_article_datas/${ID.toUpperCase()}` }).key).toBe(
      canonical,
    )
    expect(
      shape(payload, '/_/layouts', { header: `https://api.example.com/_api/page_data/blog_article_datas/${ID}` }).key,
    ).toBe(canonical)
    expect(shape(payload, '/_/layouts', { header: '/About' }).key).not.toBe(
      shape(payload, '/_/layouts', { header: '/about' }).key,
    )
  })

  it('differs between sites with other settings (a rolling deploy changing an option)', () => {
    expect(shape(site({ websiteName: 'Other' }), '/_/layouts').key).not.toBe(shape(payload, '/_/layouts').key)
  })
})

describe('the rank of a stored read', () => {
  const payload = site({ allowedOrigins: ['https://www.example.com'] })

  it('plain: the canonical path, no query, no path header, an origin the site knows', () => {
    expect(shape(payload, '/_/layouts').rank).toBe(PLAIN)
    expect(shape(payload, '/_/layouts', { origin: 'https://www.example.com' }).rank).toBe(PLAIN)
  })

  it('variant: with a query string or a path header', () => {
    expect(shape(payload, '/_/layouts', { query: '?page=2' }).rank).toBe(VARIANT)
    expect(shape(payload, '/_/layouts', { header: '/' }).rank).toBe(VARIANT)
  })

  it('stray: an escaped unreserved character, a dot segment, a trailing slash, or an origin the site does not know', () => {
    expect(shape(payload, '/_/l%61youts').rank).toBe(STRAY)
    expect(shape(payload, '/_/layouts/').rank).toBe(STRAY)
    expect(shape(payload, '/_/./layouts').rank).toBe(STRAY)
    expect(shape(payload, '/_/layouts', { origin: 'https://evil.example' }).rank).toBe(STRAY)
    // An escaped slash is not an unreserved character, and a home route's `//` is the module's own spelling.
    expect(shape(payload, '/_/routes//a%2Fb').rank).toBe(PLAIN)
    expect(shape(payload, '/_/routes//').rank).toBe(PLAIN)
    // With SERVER_URL every origin is the site's.
    expect(
      shape(site({ serverURL: 'https://api.example.com' }), '/_/layouts', { origin: 'https://evil.example' }).rank,
    ).toBe(PLAIN)
  })
})

describe('the tags a route write drops', () => {
  const event = (type: string, doc: object | undefined, previousDoc?: object) =>
    ({ type, collection: 'routes', iri: '/_api/_/routes/1', doc, previousDoc }) as never

  it("a route's path before and after, encoded (a tag header separates tags with spaces)", () => {
    expect(routePathTag('/a b')).toBe('cwa:route-path:%2Fa%20b')
    expect(routePathTagsOf([event('update', { path: '/new' }, { path: '/old' })]).sort()).toEqual(
      [routePathTag('/new'), routePathTag('/old')].sort(),
    )
  })

  it('every path resolution when which paths changed cannot be told (a delete, an update without its before)', () => {
    expect(routePathTagsOf([event('delete', undefined, { path: '/gone' })])).toEqual([
      routePathTag('/gone'),
      ROUTE_PATHS_TAG,
    ])
    expect(routePathTagsOf([event('update', { path: '/x' })])).toEqual([routePathTag('/x'), ROUTE_PATHS_TAG])
  })

  it('nothing for writes to other collections', () => {
    expect(routePathTagsOf([{ type: 'update', collection: 'pages', doc: { path: '/p' } } as never])).toEqual([])
  })

  it('falls in fence buckets that are stable and within range, one per distinct bucket', () => {
    const buckets = bucketsOf(['a', 'b', 'a'])
    expect(buckets).toEqual(bucketsOf(['a', 'b']))
    expect(buckets.length).toBeLessThanOrEqual(2)
    for (const bucket of buckets) expect(bucket >= 0 && bucket < FENCE_BUCKETS).toBe(true)
  })
})

/**
 * Issue 39, what payload-cwa/client reads of an answer's headers besides its body: the hub of a `Link` header
 * (rel="mercure", among other links, quoted or not) and the cache tags of the tag header; and the path tags it
 * gives a page, the very names the API's routes feature purges (the two are written apart: the client may not
 * import the library).
 */
import { describe, expect, it } from '@jest/globals'
import { hubOfHeaders, routePathTags, tagsOfHeader } from '../../plugins/cwa/dist/client/tags.js'
import { ROUTE_PATHS_TAG, routePathTag } from '../../plugins/cwa/dist/features/routes/pathTags.js'

describe('answer headers', () => {
  it('finds the Mercure hub among the Link header’s links, or none', () => {
    const docs = '<http://x/_api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"'
    expect(hubOfHeaders(new Headers({ link: `${docs}, <http://x/.well-known/mercure>; rel="mercure"` }))).toBe(
      'http://x/.well-known/mercure',
    )
    expect(hubOfHeaders(new Headers({ link: '<https://hub.example/m>;rel=mercure' }))).toBe('https://hub.example/m')
    expect(hubOfHeaders(new Headers({ link: docs }))).toBeNull()
    expect(hubOfHeaders(new Headers({ link: '<http://x/a,b>; rel="mercure-ish"' }))).toBeNull()
    expect(hubOfHeaders(new Headers())).toBeNull()
  })

  it('splits the tag header on any white space', () => {
    expect(tagsOfHeader(new Headers({ xkey: ' /_api/a  /_api/b ' }), 'xkey')).toEqual(['/_api/a', '/_api/b'])
    expect(tagsOfHeader(new Headers(), 'xkey')).toEqual([])
  })

  it('names a path’s tags as the API does, encoded', () => {
    for (const path of ['/', '/blog/first-article', '/a b/ü'])
      expect(routePathTags(path)).toEqual([routePathTag(path), ROUTE_PATHS_TAG])
  })
})

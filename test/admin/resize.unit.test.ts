import { describe, expect, it } from '@jest/globals'
import { MAX_EDGE, MAX_PIXELS, resizeTarget } from '../../plugins/cwa/dist/core/admin/resize.js'
import { routeTree } from '../../plugins/cwa/dist/features/routes/admin/routeTree.js'

/** Contract Limits, browser resize: over 2560 px on the longest edge or over 20 megapixels. */
describe('resizeTarget', () => {
  it('leaves an image within both limits alone', () => {
    expect(resizeTarget(2560, 1440)).toBeNull()
    expect(resizeTarget(1200, 630)).toBeNull()
    expect(resizeTarget(0, 100)).toBeNull()
  })

  it('fits the longest edge into 2560 px, keeping the aspect ratio', () => {
    expect(resizeTarget(3000, 2000)).toEqual({ width: 2560, height: 1706 })
    expect(resizeTarget(1000, 5120)).toEqual({ width: 500, height: 2560 })
  })

  it('fits a large square-ish image into 20 megapixels even when its edges are within 2560 px', () => {
    const limits = { maxEdge: 10_000, maxPixels: MAX_PIXELS }
    const target = resizeTarget(6000, 5000, limits)!
    expect(target.width * target.height).toBeLessThanOrEqual(MAX_PIXELS)
    expect(target.width * target.height).toBeGreaterThan(MAX_PIXELS * 0.999)
    expect(target.width / target.height).toBeCloseTo(6 / 5, 2)
  })

  it('keeps both limits at once', () => {
    const target = resizeTarget(8000, 8000)!
    expect(Math.max(target.width, target.height)).toBeLessThanOrEqual(MAX_EDGE)
    expect(target.width * target.height).toBeLessThanOrEqual(MAX_PIXELS)
  })
})

describe('routeTree', () => {
  const route = (path: string) => ({
    id: path,
    path,
    state: 'live' as const,
    liveAt: null,
    target: null,
    redirect: null,
  })

  it('nests routes by path, with a parent missing from the routes as a bare segment', () => {
    const tree = routeTree([route('/blog/first'), route('/'), route('/blog'), route('/docs/a/b')])
    expect(tree.route?.path).toBe('/')
    expect(tree.children.map((c) => c.path)).toEqual(['/blog', '/docs'])
    expect(tree.children[0]!.children.map((c) => c.route?.path)).toEqual(['/blog/first'])
    const docs = tree.children[1]!
    expect(docs.route).toBeNull()
    expect(docs.children[0]!.route).toBeNull()
    expect(docs.children[0]!.children[0]!.route?.path).toBe('/docs/a/b')
  })
})

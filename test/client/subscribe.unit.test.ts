/**
 * Issue 39, payload-cwa/client's hub subscriptions: which updates touch a page (its IRIs by `@id`, or an update that
 * points at one: a new block names its group; absolute IRIs by their path), and `subscribe` keeping only those from
 * the stream it opens on the hub (every topic, the cookie sent). The stream here is driven by the test (Node 20 has
 * no EventSource; a browser's real one, on the embedded hub, is in test/site/preview.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { subscribe, updateTouches } from '../../plugins/cwa/dist/client/subscribe.js'

const iris = new Set(['/_api/component/html_contents/a', '/_api/_/component_groups/g'])

describe('updateTouches', () => {
  it('matches an update by its @id, by an IRI it points at, and absolute IRIs by their path; nothing else', () => {
    expect(updateTouches({ '@id': '/_api/component/html_contents/a', html: '<p>x</p>' }, iris)).toBe(true)
    expect(
      updateTouches({ '@id': '/_api/_/component_positions/new', componentGroup: '/_api/_/component_groups/g' }, iris),
    ).toBe(true)
    expect(updateTouches({ '@id': 'https://example.com/_api/component/html_contents/a' }, iris)).toBe(true)
    expect(updateTouches({ '@id': '/_api/component/html_contents/b', componentPositions: ['/_api/x'] }, iris)).toBe(
      false,
    )
    for (const other of [null, 'text', 42, { '@id': 'not a url at all' }])
      expect(updateTouches(other, iris)).toBe(false)
  })
})

describe('subscribe', () => {
  it('opens one stream on the hub for every topic, with credentials, and passes on only the updates that touch', () => {
    const opened: Array<{ url: string; init?: { withCredentials?: boolean }; closed: boolean; source: any }> = []
    class Stream {
      onmessage: ((event: { data: string }) => void) | null = null
      constructor(url: string, init?: { withCredentials?: boolean }) {
        opened.push({ url, init, closed: false, source: this })
      }
      close() {
        opened.find((entry) => entry.source === this)!.closed = true
      }
    }
    const got: unknown[] = []
    const stop = subscribe({
      hub: 'http://localhost:3000/.well-known/mercure',
      iris,
      onUpdate: (u) => got.push(u),
      EventSource: Stream,
    })
    expect(opened).toHaveLength(1)
    expect(opened[0]!.url).toBe('http://localhost:3000/.well-known/mercure?topic=*')
    expect(opened[0]!.init).toEqual({ withCredentials: true })
    const send = (data: string) => opened[0]!.source.onmessage({ data })
    send(JSON.stringify({ '@id': '/_api/component/html_contents/a', html: '<p>new</p>' }))
    send(JSON.stringify({ '@id': '/_api/component/html_contents/elsewhere' }))
    send('not json')
    expect(got).toEqual([{ '@id': '/_api/component/html_contents/a', html: '<p>new</p>' }])
    stop()
    expect(opened[0]!.closed).toBe(true)
  })

  it('says so when there is no EventSource to open (Node without one passed)', () => {
    expect(() => subscribe({ hub: 'http://x/.well-known/mercure', iris, onUpdate: () => {} })).toThrow(/no EventSource/)
  })
})

/**
 * Writing HtmlContent's html converts it to the editor's state through a happy-dom window; a window left open is
 * never collected, and the site grew by about 250 KB per write (found by `npm run load` at 540 requests a
 * second: 1 GB in 40 s; after the fix the heap after a collection stayed flat, docs/read-model.md). Every
 * conversion closes what it opened, and the ones running at once each close their own.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { htmlToEditorState, openConversionWindows } from 'payload-cwa/content'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('html to the editor state', () => {
  it('closes every window it opens, one conversion after another and many at once', async () => {
    const collection = server.payload.collections.html_contents!.config
    for (let i = 0; i < 20; i++) {
      const state = await htmlToEditorState(`<h2>Title ${i}</h2><p>Some <strong>text</strong> ${i}</p>`, collection)
      expect(JSON.stringify(state)).toContain(`Title ${i}`)
      expect(openConversionWindows()).toBe(0)
    }
    await Promise.all(Array.from({ length: 20 }, (_, i) => htmlToEditorState(`<p>at once ${i}</p>`, collection)))
    expect(openConversionWindows()).toBe(0)
  })
})

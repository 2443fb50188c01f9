/**
 * Writing HtmlContent's html converts it to the editor's state through a happy-dom window; a window left open is
 * never collected, and the site grew by about 250 KB per write (found by `npm run load` at 540 requests a
 * second: 1 GB in 40 s). Three hundred conversions must leave the heap where it was, give or take the noise.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { htmlToEditorState } from '../../collections/richText/htmlContentSync'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heapMb = () => {
  gc()
  return process.memoryUsage().heapUsed / 2 ** 20
}

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('html to the editor state', () => {
  it('closes the windows it opens: 300 conversions leave the heap as it was (a leak would add about 75 MB)', async () => {
    const collection = server.payload.collections.html_contents!.config
    for (let i = 0; i < 20; i++) await htmlToEditorState(`<p>warm ${i}</p>`, collection)
    const before = heapMb()
    for (let i = 0; i < 300; i++)
      await htmlToEditorState(`<h2>Title ${i}</h2><p>Some <strong>text</strong> ${i}</p>`, collection)
    expect(heapMb() - before).toBeLessThan(20)
  }, 120_000)
})

/**
 * The browser harness itself: a request that would leave the machine is
 * blocked and recorded (so "works offline" assertions can fail), loopback
 * and data: URLs pass.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import { openBrowser, staysLocal, type TestBrowser } from '../support/browser'

let browser: TestBrowser
let server: Server
let base: string

beforeAll(async () => {
  browser = await openBrowser()
  server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html')
    // A page that tries a CDN script, a third-party image and a loopback fetch.
    res.end(`<!doctype html><title>t</title>
      <script src="https://cdn.example.com/monaco.js"></script>
      <img src="https://avatars.example.org/u/1">
      <script>fetch('/ping').then(r => r.text()).then(t => { document.title = t })</script>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
}, 60_000)

afterAll(async () => {
  await browser?.close()
  server?.close()
})

describe('browser harness', () => {
  it('classifies loopback, data: and blob: as local and everything else as offsite', () => {
    expect(staysLocal('http://127.0.0.1:3000/admin')).toBe(true)
    expect(staysLocal('http://localhost/x')).toBe(true)
    expect(staysLocal('data:image/png;base64,AAAA')).toBe(true)
    expect(staysLocal('https://www.gravatar.com/avatar/abc')).toBe(false)
    expect(staysLocal('https://cdn.jsdelivr.net/npm/monaco-editor')).toBe(false)
    expect(staysLocal('http://127.0.0.1.example.com/')).toBe(false)
  })

  it("fails and records a page's requests that leave loopback (fetch, WebSocket), and lets loopback ones through", async () => {
    const page = await browser.newPage()
    await page.goto(base)
    await page.waitForFunction(() => document.title !== 't')
    expect(await page.title()).toContain('<!doctype') // the loopback fetch answered (the same page's HTML)
    expect(browser.offsite.sort()).toEqual(['https://avatars.example.org/u/1', 'https://cdn.example.com/monaco.js'])
    // What the page sees: a request leaving loopback fails, as offline; a WebSocket never opens. It fails at the dead
    // proxy, before any name lookup, so on a machine with internet too.
    const failures: string[] = []
    page.on('requestfailed', (request) => failures.push(`${request.url()} ${request.failure()?.errorText}`))
    const seen = await page.evaluate(async () => {
      const fetched = await fetch('https://api.example.net/data').then(
        () => 'answered',
        () => 'failed',
      )
      const socket = await new Promise<string>((resolve) => {
        const ws = new WebSocket('wss://live.example.net/hub')
        ws.onopen = () => resolve('open')
        ws.onerror = () => resolve('failed')
      })
      return { fetched, socket }
    })
    expect(seen).toEqual({ fetched: 'failed', socket: 'failed' })
    expect(failures).toContain('https://api.example.net/data net::ERR_PROXY_CONNECTION_FAILED')
    expect(browser.offsite).toEqual(
      expect.arrayContaining(['https://api.example.net/data', 'https://live.example.net/hub']),
    )
    await page.close()
  })
})

/**
 * `npx payload cwa:purge-rendered-html` and `cwa:purge-http-cache` (contract,
 * operator commands), run as real child processes against a real Varnish
 * with the README's VCL: they purge as the endpoints do, print the reason
 * and exit 1 when Varnish is down, and succeed doing nothing without a purger.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type CommandRun, runPayloadCommand, UNREACHABLE_DATABASE_URL } from '../support/command'
import { startTestServer, type TestServer } from '../support/server'
import { startVarnish, type TestVarnish } from '../support/varnish'

let server: TestServer
let varnish: TestVarnish
let frontend: Server
let renders = 0
let apiPath: string

function run(command: string, env: Record<string, string>, args: string[] = []): Promise<CommandRun> {
  return runPayloadCommand(command, args, { DATABASE_URL: server.databaseUrl, ...env })
}

const varnishEnv = () => ({ CACHE_PURGER: 'varnish', VARNISH_URL: varnish.url, SERVER_URL: varnish.url })

/** An anonymous GET through Varnish: whether it came from the cache. */
async function hit(path: string): Promise<boolean> {
  const response = await fetch(`${varnish.url}${path}`, { headers: { accept: 'application/ld+json' } })
  await response.arrayBuffer()
  return (response.headers.get('x-varnish') ?? '').trim().split(/\s+/).length === 2
}

beforeAll(async () => {
  frontend = createServer((_req, res) => {
    renders += 1
    res
      .writeHead(200, { 'content-type': 'text/html', 'cache-control': 'public, s-maxage=600', xkey: 'cwa-html' })
      .end(`<p>render ${renders}</p>`)
  })
  await new Promise<void>((resolve) => frontend.listen(0, '127.0.0.1', resolve))
  server = await startTestServer({ options: { httpCache: { sharedMaxAge: 600 } } })
  apiPath = `/_api/component/titles/${(await server.payload.create({ collection: 'titles', data: { title: 'cached' } as never })).id}`
  varnish = await startVarnish({
    servicePort: Number(new URL(server.url).port),
    frontendPort: (frontend.address() as AddressInfo).port,
  })
})
afterAll(async () => {
  await varnish?.stop()
  await server?.close()
  await new Promise((resolve) => frontend?.close(resolve))
})

describe('with Varnish', () => {
  it('cwa:purge-rendered-html purges the rendered pages and nothing else; exit 0', async () => {
    await hit('/page-one')
    expect(await hit('/page-one')).toBe(true)
    await hit(apiPath)
    expect(await hit(apiPath)).toBe(true)
    const result = await run('cwa:purge-rendered-html', varnishEnv())
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' })
    expect(result.stdout).toContain('Purged the rendered HTML (tag cwa-html) from varnish.')
    expect(await hit('/page-one')).toBe(false)
    expect(await hit(apiPath)).toBe(true)
  }, 60_000)

  it('cwa:purge-http-cache flushes everything; exit 0', async () => {
    await hit('/page-two')
    expect(await hit('/page-two')).toBe(true)
    expect(await hit(apiPath)).toBe(true)
    const result = await run('cwa:purge-http-cache', varnishEnv())
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Flushed the whole HTTP cache (varnish).')
    expect(await hit('/page-two')).toBe(false)
    expect(await hit(apiPath)).toBe(false)
  }, 60_000)
})

describe('without a purger', () => {
  it('both succeed and say nothing was purged', async () => {
    const html = await run('cwa:purge-rendered-html', { CACHE_PURGER: 'none' })
    expect(html.code).toBe(0)
    expect(html.stdout).toContain('No HTTP cache purger is configured')
    const all = await run('cwa:purge-http-cache', { CACHE_PURGER: 'none' })
    expect(all.code).toBe(0)
    expect(all.stdout).toContain('The none purger cannot flush an HTTP cache: nothing was purged.')
  }, 60_000)
})

describe('arguments', () => {
  it('both take none: an argument is refused with the usage before reaching the database (exit 1)', async () => {
    for (const command of ['cwa:purge-rendered-html', 'cwa:purge-http-cache']) {
      const result = await run(command, { DATABASE_URL: UNREACHABLE_DATABASE_URL }, ['--all'])
      expect(result.code).toBe(1)
      expect(result.stderr.trim()).toBe(`${command} takes no argument (got --all).\nUsage: npx payload ${command}`)
    }
  }, 60_000)
})

describe('Varnish down', () => {
  it('both print the reason and exit 1', async () => {
    const env = varnishEnv()
    await varnish.stop()
    for (const command of ['cwa:purge-rendered-html', 'cwa:purge-http-cache']) {
      const result = await run(command, env)
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(
        /was not purged: Varnish at http:\/\/127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED\)/,
      )
    }
  }, 60_000)
})

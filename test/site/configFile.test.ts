/**
 * CWA_CONFIG_FILE: a JSON object deep-merged over the reference deployment's
 * plugin options; API_PREFIX moves the JSON-LD API and every IRI with it.
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { siteOptions } from '../../src/config/siteOptions'
import { startTestServer, type TestServer } from '../support/server'

const dir = mkdtempSync(path.join(tmpdir(), 'cwa-config-'))
const servers: TestServer[] = []

function configFile(content: string): string {
  const file = path.join(dir, `options-${servers.length}-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(file, content)
  return file
}

afterEach(() => {
  delete process.env.CWA_CONFIG_FILE
  delete process.env.API_PREFIX
})
afterAll(async () => {
  for (const server of servers) await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('siteOptions', () => {
  it('deep-merges the file over the defaults: objects merge, values and arrays replace', () => {
    const file = configFile(
      JSON.stringify({
        websiteName: 'Merged',
        users: { allowRegistration: true },
        routeSecurity: [{ route: '/admin*', security: 'ROLE_ADMIN' }],
      }),
    )
    const options = siteOptions({ CWA_CONFIG_FILE: file })
    expect(options.websiteName).toBe('Merged')
    expect(options.users).toEqual({ allowRegistration: true })
    expect(options.routeSecurity).toEqual([{ route: '/admin*', security: 'ROLE_ADMIN' }])
    // Defaults the file does not name are kept.
    expect(options.apiPrefix).toBe('/_api')
    expect((options.forms as { types: unknown[] }).types.length).toBe(2)
  })

  it('refuses a file that is not a JSON object, with a message naming it', () => {
    expect(() => siteOptions({ CWA_CONFIG_FILE: configFile('[1, 2]') })).toThrow(/must hold a JSON object/)
    expect(() => siteOptions({ CWA_CONFIG_FILE: configFile('{ nope') })).toThrow(/could not be read as JSON/)
    // A feature is code: named in JSON it would do nothing, so the start stops and says where features go.
    expect(() => siteOptions({ CWA_CONFIG_FILE: configFile('{ "features": [{ "name": "mine" }] }') })).toThrow(
      /features cannot be given in JSON/,
    )
    expect(() => siteOptions({ CWA_CONFIG_FILE: path.join(dir, 'missing.json') })).toThrow(/missing\.json/)
  })
})

describe('a site started with CWA_CONFIG_FILE and API_PREFIX', () => {
  it('opens registration when the file says so', async () => {
    process.env.CWA_CONFIG_FILE = configFile(JSON.stringify({ users: { allowRegistration: true } }))
    const server = await startTestServer()
    servers.push(server)
    const created = await server.post('/_api/users', {
      username: 'newcomer',
      emailAddress: 'newcomer@example.com',
      plainPassword: 'a long enough password',
    })
    expect(created.status).toBe(201)
    expect(created.body.roles).toEqual(['ROLE_USER'])
  })

  it('serves the JSON-LD API and its IRIs under the configured prefix', async () => {
    process.env.API_PREFIX = '/content'
    const server = await startTestServer()
    servers.push(server)
    const entry = await server.get('/content/')
    expect(entry.status).toBe(200)
    expect(entry.body.page).toBe('/content/_/pages')
    const admin = await server.tokenFor('ROLE_ADMIN')
    const layout = await server.post('/content/_/layouts', { reference: 'prefixed' }, { token: admin })
    expect(layout.body['@id']).toMatch(/^\/content\/_\/layouts\/[0-9a-f-]{36}$/)
    expect((await server.get('/_api/')).status).toBe(404)
  })
})

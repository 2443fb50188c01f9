/**
 * Attack: a shared HTTP cache in front of the API stores an editor's answer
 * (which may hold drafts) and serves it to the public. Every JSON-LD
 * response varies on the credentials; signed-in answers are never stored.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => server.close())

describe('caching of caller-dependent responses', () => {
  it('varies on Cookie and Authorization for everyone', async () => {
    for (const token of [undefined, admin]) {
      const response = await server.get('/_api/component/html_contents', { token })
      expect(response.headers.get('vary')).toMatch(/Cookie/)
      expect(response.headers.get('vary')).toMatch(/Authorization/)
    }
  })

  it('marks answers to signed-in callers private and not storable', async () => {
    const response = await server.get('/_api/component/html_contents', { token: admin })
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const anonymous = await server.get('/_api/component/html_contents')
    expect(anonymous.headers.get('cache-control') ?? '').not.toMatch(/private/)
  })
})

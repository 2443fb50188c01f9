import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

/**
 * emailAddress is unique (contract, User) even when two writes race past
 * the application's own check: the database index decides, and the loser
 * gets a 422 on emailAddress, never a 500 and never a second account.
 */

let server: TestServer
let root: string

beforeAll(async () => {
  server = await startTestServer()
  await server.createUser('root', ['ROLE_SUPER_ADMIN'])
  root = await server.login('root')
})
afterAll(async () => {
  await server?.close()
})

describe('unique email address', () => {
  it('race: eight simultaneous registrations of one address make one account; the others get 422 on emailAddress', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        server.post(
          '/_api/users',
          { username: `racer${i}`, emailAddress: 'Same@Example.com', plainPassword: 'a good password' },
          { token: root },
        ),
      ),
    )
    const statuses = responses.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.filter((s) => s === 422)).toHaveLength(7)
    for (const response of responses.filter((r) => r.status === 422)) {
      expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['emailAddress'])
    }
    const rows = await server.sql(`SELECT count(*) AS n FROM _acb_users WHERE email = 'same@example.com'`)
    expect(Number(rows[0]!.n)).toBe(1)
  })

  it('case and spaces do not make another address', async () => {
    const response = await server.post(
      '/_api/users',
      { username: 'other', emailAddress: '  SAME@example.COM ', plainPassword: 'a good password' },
      { token: root },
    )
    expect(response.status).toBe(422)
    expect(response.body.violations[0].propertyPath).toBe('emailAddress')
  })
})

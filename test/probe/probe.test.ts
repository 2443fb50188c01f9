import { afterAll, beforeAll, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => { server = await startTestServer() })
afterAll(async () => { await server.close() })

it('probe', async () => {
  const superAdmin = await server.tokenFor('ROLE_SUPER_ADMIN')
  const log = (label: string, r: { status: number; text: string }) => console.log(label, r.status, r.text.slice(0, 300))
  await server.createUser('taken_user')
  for (let i = 0; i < 5; i++) {
    log('byName', await server.post('/_api/users', { username: 'taken_user', emailAddress: `a${i}@example.com`, plainPassword: 'a long password' }, { token: superAdmin }))
    log('byEmail', await server.post('/_api/users', { username: `zz${i}`, emailAddress: 'taken_user@example.com', plainPassword: 'a long password' }, { token: superAdmin }))
    try { await server.createUser(`other_${i}`); console.log('create ok') } catch (e) { console.log('create failed', String(e).slice(0, 200)) }
  }
})

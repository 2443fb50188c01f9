import type { Payload } from 'payload'

export /** An admin (publish permission by default) signed in through the JSON-LD API; returns the JWT. */
async function signIn(payload: Payload, base: string): Promise<string> {
  const username = 'bench_admin'
  const password = 'bench password, not a secret'
  await payload.create({
    collection: 'users',
    data: {
      username,
      email: 'bench@example.com',
      password,
      roles: ['ROLE_ADMIN'],
      enabled: true,
      emailAddressVerified: true,
    } as never,
    depth: 0,
  })
  const response = await fetch(`${base}/_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('api_component='))
  if (response.status !== 204 || !cookie) throw new Error(`bench login failed: ${response.status}`)
  return decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!)
}

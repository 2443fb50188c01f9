import type { Payload } from 'payload'

/**
 * An admin (publish permission by default) created with the Local API and signed in through the JSON-LD API;
 * returns the JWT. `who` names the account and the error (the bench's, the load run's).
 */
export async function signIn(payload: Payload, base: string, who = 'bench'): Promise<string> {
  const username = `${who}_admin`
  const password = `${who} password, not a secret`
  await payload.create({
    collection: 'users',
    data: {
      username,
      email: `${who}@example.com`,
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
  if (response.status !== 204 || !cookie) throw new Error(`${who} login failed: ${response.status}`)
  return decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!)
}

import { expect } from '@jest/globals'
import { createHash } from 'node:crypto'
import { linksByPart, type ReceivedMessage } from './smtp'
import type { TestResponse, TestServer } from './server'

/** The emailed-link flows (verification, password reset, email change): their links, tokens and waits. */

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/** The one link of an email, checked to be the same in the HTML and the text part. */
export function theLink(message: ReceivedMessage): URL {
  const { html, text } = linksByPart(message)
  expect(html).toHaveLength(1)
  expect(text).toEqual(html)
  return new URL(html[0]!)
}

/** `{username}` and `{token}` of a link whose path ends with /{username}/{token}. */
export function linkParts(link: URL): { username: string; token: string } {
  const segments = link.pathname.split('/')
  return { username: decodeURIComponent(segments.at(-2)!), token: decodeURIComponent(segments.at(-1)!) }
}

/** Submits the built-in password_reset form (what the front end does with the emailed link's values). */
export function submitReset(
  server: TestServer,
  username: string,
  token: string,
  password: string,
): Promise<TestResponse> {
  return server.post(
    '/_api/component/forms/password_reset/submit',
    { password_reset: { username, token, plainPassword: { first: password, second: password } } },
    { contentType: 'application/json' },
  )
}

/** Whether POST /login accepts the credentials. */
export async function canLogin(server: TestServer, username: string, password: string): Promise<boolean> {
  const response = await server.post('/_api/login', { username, password }, { contentType: 'application/json' })
  return response.status === 204
}

/** Stored email-flow tokens of a user (purpose, hash, times). */
export function storedTokens(
  server: TestServer,
  userId: string,
  purpose?: string,
): Promise<Array<{ purpose: string; token_hash: string; data: string | null }>> {
  return purpose
    ? server.sql('SELECT purpose, token_hash, data FROM _acb_user_tokens WHERE user_id = $1 AND purpose = $2', [
        userId,
        purpose,
      ])
    : server.sql('SELECT purpose, token_hash, data FROM _acb_user_tokens WHERE user_id = $1', [userId])
}

/** Moves a user's last send of that purpose back in time: the same as waiting that long. */
export async function ageSend(server: TestServer, userId: string, purpose: string, seconds: number): Promise<void> {
  await server.sql(
    `UPDATE _acb_user_tokens SET sent_at = sent_at - make_interval(secs => $3) WHERE user_id = $1 AND purpose = $2`,
    [userId, purpose, seconds],
  )
}

export function expectPrivate(response: TestResponse): void {
  expect(response.headers.get('cache-control')).toBe('private, no-store')
}

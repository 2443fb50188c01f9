import { describe, expect, it } from '@jest/globals'
import { linksIn } from '../../support/smtp'
import { ageSend, linkParts, storedTokens, submitReset, theLink } from '../../support/emailFlows'
import { useMailSite } from '../../support/mail'

/**
 * The link rules of the contract ("Email links"): which origin, which path,
 * and the refusal when there is none. Checked through real requests and
 * real emails; the pure rules on their own are in linkTemplates.unit.test.ts.
 */

const DEFAULT = 'https://front.example.com'
let counter = 0

/** Requests a reset for a fresh user with these headers and query; returns the response and, when sent, the link. */
async function resetLink(headers: Record<string, string> = {}, query = '') {
  const username = `links${++counter}`
  await server.createUser(username)
  const response = await server.get(`/_api/password/reset/request/${username}${query}`, { headers })
  if (response.status !== 200) return { response, link: null }
  return {
    response,
    link: theLink(
      await smtp.waitFor((m) => m.to.includes(`${username}@example.com`) && /password reset/.test(m.subject)),
    ),
  }
}

async function originFor(headers: Record<string, string>): Promise<string> {
  const { response, link } = await resetLink(headers)
  expect(response.status).toBe(200)
  return link!.origin
}

const { server, smtp } = useMailSite({
  user: {
    emailLinks: {
      defaultOrigin: DEFAULT,
      allowedOrigins: [
        'https://app\\.example\\.com',
        'http://localhost:3000',
        'https://Mixed\\.Example\\.org',
        '[a-z]+://scheme\\.example\\.com',
      ],
    },
    passwordReset: { email: { redirectPathQuery: 'redirect' } },
  },
})

describe('link origin', () => {
  it('uses an allowed Origin header', async () => {
    expect(await originFor({ origin: 'https://app.example.com' })).toBe('https://app.example.com')
    expect(await originFor({ origin: 'http://localhost:3000' })).toBe('http://localhost:3000')
  })

  it('uses the default origin without Origin and Referer', async () => {
    expect(await originFor({})).toBe(DEFAULT)
  })

  it('uses the Referer origin (no path) when there is no Origin header', async () => {
    const { link } = await resetLink({ referer: 'https://app.example.com/account/forgot?x=1' })
    expect(link!.origin).toBe('https://app.example.com')
    expect(link!.pathname.startsWith('/reset-password/')).toBe(true)
  })

  it('ignores the Referer when an Origin header is present, even one not allowed (header juggling)', async () => {
    expect(await originFor({ origin: 'https://evil.example.net', referer: 'https://app.example.com/page' })).toBe(
      DEFAULT,
    )
  })

  it('falls back to the default origin for an origin not allowed (reset link pointing to a phishing site)', async () => {
    expect(await originFor({ origin: 'https://evil.example.net' })).toBe(DEFAULT)
    expect(await originFor({ referer: 'https://evil.example.net/a' })).toBe(DEFAULT)
    expect(await originFor({ origin: 'null' })).toBe(DEFAULT)
  })

  it('anchors the patterns to the whole origin (suffix and prefix tricks)', async () => {
    expect(await originFor({ origin: 'https://app.example.com.evil.net' })).toBe(DEFAULT)
    expect(await originFor({ origin: 'https://evilapp.example.com' })).toBe(DEFAULT)
    expect(await originFor({ origin: 'https://app.example.com:8443' })).toBe(DEFAULT)
    expect(await originFor({ origin: 'http://localhost:30000' })).toBe(DEFAULT)
  })

  it('matches case-insensitively and normalises the origin (lower case, default port dropped)', async () => {
    expect(await originFor({ origin: 'https://mixed.example.org' })).toBe('https://mixed.example.org')
    expect(await originFor({ origin: 'HTTPS://APP.EXAMPLE.COM' })).toBe('https://app.example.com')
    expect(await originFor({ origin: 'https://app.example.com:443' })).toBe('https://app.example.com')
  })

  it('accepts only http and https origins, even when a pattern matches another scheme', async () => {
    expect(await originFor({ origin: 'https://scheme.example.com' })).toBe('https://scheme.example.com')
    expect(await originFor({ origin: 'ftp://scheme.example.com' })).toBe(DEFAULT)
    expect(await originFor({ origin: 'javascript://scheme.example.com' })).toBe(DEFAULT)
  })
})

describe('redirect path query', () => {
  it('uses a safe requested path, with the placeholders filled in', async () => {
    const { link } = await resetLink(
      { origin: 'https://app.example.com' },
      `?redirect=${encodeURIComponent('/custom/{{ username }}/x/{{token}}')}`,
    )
    const { token } = linkParts(link!)
    expect(link!.origin).toBe('https://app.example.com')
    expect(link!.pathname).toBe(`/custom/links${counter}/x/${token}`)
  })

  it.each([
    ['protocol-relative //evil.com (open redirect)', '//evil.com/{{ token }}'],
    ['a backslash /\\evil (open redirect)', '/\\evil.com/{{ token }}'],
    ['an inner //', '/a//b/{{ token }}'],
    ['a space', '/a b/{{ token }}'],
    ['a control character', '/a\nb/{{ token }}'],
    ['a NUL', '/a\u0000b/{{ token }}'],
    ['a full URL', 'https://evil.com/{{ token }}'],
    ['no leading slash', 'evil/{{ token }}'],
  ])('refuses a requested path with %s and uses the default path', async (_name, path) => {
    const { link } = await resetLink({ origin: 'https://app.example.com' }, `?redirect=${encodeURIComponent(path)}`)
    expect(link!.origin).toBe('https://app.example.com')
    expect(link!.pathname).toMatch(/^\/reset-password\/links\d+\/[A-Za-z0-9_-]+$/)
  })
})

describe('link refusal', () => {
  const { server: refusing, smtp: refusingSmtp } = useMailSite({
    user: {
      emailLinks: { allowedOrigins: ['https://app\\.example\\.com'] },
      emailVerification: { email: { defaultRedirectPath: 'https://verify.example.org/v/{{ username }}/{{ token }}' } },
    },
  })
  // The same, but with the site's default (relative) verification path.
  const { server: relative, smtp: relativeSmtp } = useMailSite({
    user: { emailLinks: { allowedOrigins: ['https://app\\.example\\.com'] } },
  })

  it('answers 400 without a usable origin and changes nothing: the existing reset link keeps working', async () => {
    const id = await refusing.createUser('rita')
    const allowed = await refusing.get('/_api/password/reset/request/rita', {
      headers: { origin: 'https://app.example.com' },
    })
    expect(allowed.status).toBe(200)
    const { token } = linkParts(
      theLink(await refusingSmtp.waitFor((m) => m.to.includes('rita@example.com') && /password reset/.test(m.subject))),
    )
    await ageSend(refusing, id, 'password_reset', 86400)
    const before = await storedTokens(refusing, id)

    for (const headers of [
      {},
      { origin: 'https://evil.example.net' },
      { referer: 'https://evil.example.net/x' },
    ] as Array<Record<string, string>>) {
      const response = await refusing.get('/_api/password/reset/request/rita', { headers })
      expect(response.status).toBe(400)
      expect(response.body.detail).toMatch(/link/i)
    }
    expect(await storedTokens(refusing, id)).toEqual(before)
    expect(refusingSmtp.to('rita@example.com').filter((m) => /password reset/.test(m.subject))).toHaveLength(1)
    expect((await submitReset(refusing, 'rita', token, 'rita still resets 1')).status).toBe(201)
  })

  it('still sends a plain welcome (no verification link) without a usable origin, just without a link', async () => {
    const root = await refusing.tokenFor('ROLE_SUPER_ADMIN')
    const created = await refusing.post(
      '/_api/users',
      { username: 'wilma', emailAddress: 'wilma@example.com', plainPassword: 'wilma pw 123' },
      { token: root },
    )
    expect(created.status).toBe(201)
    const mail = await refusingSmtp.waitFor((m) => m.to.includes('wilma@example.com') && /^Welcome/.test(m.subject))
    expect(linksIn(mail)).toEqual([])
    expect(mail.text).toContain('Your account is ready')
  })

  it('answers 400 on the verification resend too, unless the path is a full URL (used as is)', async () => {
    // The site's default verification path (/verify-email/...) needs an origin: none usable is a 400, nothing sent or stored.
    const id = await relative.createUser('vera', ['ROLE_USER'], { emailAddressVerified: false })
    for (const headers of [
      {},
      { origin: 'https://evil.example.net' },
      { referer: 'https://evil.example.net/x' },
    ] as Array<Record<string, string>>) {
      const refused = await relative.get('/_api/resend-verify-email/vera', { headers })
      expect(refused.status).toBe(400)
      expect(refused.body.detail).toMatch(/link/i)
    }
    expect(await storedTokens(relative, id)).toEqual([])
    await relativeSmtp.idle()
    expect(relativeSmtp.to('vera@example.com')).toHaveLength(0)
    // The same request from the allowed front end is sent (control: the 400 is about the origin).
    expect(
      (await relative.get('/_api/resend-verify-email/vera', { headers: { origin: 'https://app.example.com' } })).status,
    ).toBe(200)
    expect(
      theLink(await relativeSmtp.waitFor((m) => m.to.includes('vera@example.com') && /verify/.test(m.subject))).origin,
    ).toBe('https://app.example.com')

    // A full URL as the verification path is used as is: no origin needed.
    await refusing.createUser('vera', ['ROLE_USER'], { emailAddressVerified: false })
    const response = await refusing.get('/_api/resend-verify-email/vera')
    expect(response.status).toBe(200)
    const link = theLink(
      await refusingSmtp.waitFor((m) => m.to.includes('vera@example.com') && /verify/.test(m.subject)),
    )
    expect(link.origin).toBe('https://verify.example.org')
    expect(link.pathname).toMatch(/^\/v\/vera\/[A-Za-z0-9_-]{43}$/)
  })
})

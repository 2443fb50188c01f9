/**
 * The link rules of the contract ("Email links") on their own, without a site or a database (the database-free
 * tier): the link template chosen (origin, requested path, refusal), its placeholders filled, origins normalised,
 * requested paths checked. Through real requests and real emails: links.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import {
  fillLink,
  isSafeRedirectPath,
  linkTemplate,
  normalizeOrigin,
} from '../../../plugins/cwa/dist/features/users/email/links.js'

describe('link rules', () => {
  const links = { defaultOrigin: null, allowedOrigins: [] as string[] }
  const req = (headers: Record<string, string> = {}, query = '') => ({
    headers: new Headers(headers),
    searchParams: new URLSearchParams(query),
  })

  it('refuses with neither default origin nor allowed origins', () => {
    const result = linkTemplate(req({ origin: 'https://app.example.com' }), links, {
      defaultRedirectPath: '/r/{{ token }}',
      redirectPathQuery: 'next',
    })
    expect(result.ok).toBe(false)
  })

  it('URL-encodes the placeholders', () => {
    expect(
      fillLink('https://a.example/{{ username }}/{{ new_email }}/{{ token }}', {
        username: 'jo/ann?x',
        new_email: 'a+b@c.example',
        token: 'T',
      }),
    ).toBe('https://a.example/jo%2Fann%3Fx/a%2Bb%40c.example/T')
  })

  it('normalises origins', () => {
    expect(normalizeOrigin('HTTP://Example.COM:80/')).toBe('http://example.com')
    expect(normalizeOrigin('https://example.com:443')).toBe('https://example.com')
    expect(normalizeOrigin('https://example.com:8443/path')).toBe('https://example.com:8443')
    expect(normalizeOrigin('file:///etc/passwd')).toBeNull()
    expect(normalizeOrigin('not a url')).toBeNull()
  })

  it('checks requested paths', () => {
    expect(isSafeRedirectPath('/ok/x')).toBe(true)
    expect(
      linkTemplate(
        req({}, 'next=/ok/{{ token }}'),
        { ...links, defaultOrigin: 'https://a.example' },
        { defaultRedirectPath: '/d', redirectPathQuery: 'next' },
      ),
    ).toEqual({
      ok: true,
      template: 'https://a.example/ok/{{ token }}',
      origin: 'https://a.example',
    })
    for (const bad of ['//evil.com', '/\\evil', '/a b', '/a\tb', '/a\u007fb', 'x/y', '', '/a//b'])
      expect(isSafeRedirectPath(bad)).toBe(false)
  })
})

/**
 * The real-time options: off without a hub URL (unless the embedded hub runs), the secret required with one, the
 * embedded hub's limits, the reference deployment's variables.
 */
import { describe, expect, it } from '@jest/globals'
import { resolveOptions } from 'payload-cwa'
import { siteOptions } from '../../src/config/siteOptions'

describe('mercure options', () => {
  it('are off by default (no hub URL): nothing is published or announced', () => {
    expect(resolveOptions({}).mercure).toMatchObject({
      url: null,
      publicUrl: null,
      jwtSecret: null,
      coreResources: true,
      retries: 2,
    })
    expect(resolveOptions(siteOptions({})).mercure.url).toBeNull()
  })

  it('take MERCURE_URL, MERCURE_PUBLIC_URL and MERCURE_JWT_SECRET in the reference deployment; the public URL defaults to the publish URL', () => {
    const env = {
      MERCURE_URL: 'http://hub:3000/.well-known/mercure',
      MERCURE_PUBLIC_URL: 'https://example.com/.well-known/mercure',
      MERCURE_JWT_SECRET: 's3cret',
    }
    expect(resolveOptions(siteOptions(env)).mercure).toMatchObject({
      url: env.MERCURE_URL,
      publicUrl: env.MERCURE_PUBLIC_URL,
      jwtSecret: 's3cret',
    })
    expect(resolveOptions(siteOptions({ ...env, MERCURE_PUBLIC_URL: undefined })).mercure.publicUrl).toBe(
      env.MERCURE_URL,
    )
  })

  it('refuse a hub URL without the secret, a URL that is not absolute and an unknown SameSite', () => {
    expect(() => resolveOptions({ mercure: { url: 'http://hub/.well-known/mercure' } })).toThrow(
      'mercure.jwtSecret (MERCURE_JWT_SECRET) is required',
    )
    expect(() => resolveOptions({ mercure: { url: '/relative', jwtSecret: 'x' } })).toThrow(
      'mercure.url must be an absolute URL',
    )
    expect(() =>
      resolveOptions({ mercure: { url: 'http://hub/', jwtSecret: 'x', cookie: { sameSite: 'loose' as never } } }),
    ).toThrow('mercure.cookie.sameSite')
  })

  it('the embedded hub: off in the library, on in the reference deployment outside production (MERCURE_EMBEDDED=1|0)', () => {
    expect(resolveOptions({}).mercure).toMatchObject({
      embedded: false,
      subscriberTtl: 600,
      hub: {
        maxSubscribers: 1000,
        history: 1000,
        maxBufferedBytes: 1048576,
        heartbeat: 15000,
        maxSubscribersPerClient: 50,
        maxSelectors: 20,
        maxSelectorLength: 512,
      },
    })
    const embedded = (env: Record<string, string | undefined>) => resolveOptions(siteOptions(env)).mercure.embedded
    expect(embedded({})).toBe(true)
    expect(embedded({ NODE_ENV: 'development' })).toBe(true)
    expect(embedded({ NODE_ENV: 'production' })).toBe(false)
    expect(embedded({ NODE_ENV: 'production', MERCURE_EMBEDDED: '1' })).toBe(true)
    expect(embedded({ MERCURE_EMBEDDED: '0' })).toBe(false)
    expect(() => siteOptions({ MERCURE_EMBEDDED: 'false' })).toThrow('MERCURE_EMBEDDED must be 1 or 0 (got "false")')
    const limits = {
      maxSubscribers: 5,
      history: 0,
      maxBufferedBytes: 4096,
      heartbeat: 0,
      maxSubscribersPerClient: 2,
      maxSelectors: 3,
      maxSelectorLength: 64,
    }
    expect(resolveOptions({ mercure: { hub: limits } }).mercure.hub).toEqual(limits)
  })
})

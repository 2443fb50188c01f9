/**
 * Read replicas, the decisions made before any database work: which requests read from the primary (a request
 * that writes or carries credentials), how DATABASE_REPLICA_URLS is read, and the replicaWaitMs option. The real
 * replica is in test/scaling/readReplicas.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { needsPrimary, onPrimary, readsOnPrimary } from '../../plugins/cwa/dist/core/replicas/index.js'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
import { replicaUrls } from '../../src/config/databaseUrl'

const names = { cookies: ['api_component', 'api_component_refresh', 'payload-token'] }
const headers = (values: Record<string, string>) => (name: string) => values[name]

describe('which requests read from the primary', () => {
  it('an anonymous GET, HEAD or OPTIONS reads from a replica', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get'])
      expect(needsPrimary(method, headers({ cookie: 'theme=dark; _ga=1' }), names)).toBe(false)
  })

  it('a request that may write reads from the primary (its response sees its own write)', () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) expect(needsPrimary(method, headers({}), names)).toBe(true)
  })

  it('a signed-in caller reads from the primary: a bearer token or any credential cookie', () => {
    expect(needsPrimary('GET', headers({ authorization: 'Bearer x' }), names)).toBe(true)
    expect(needsPrimary('GET', headers({ cookie: 'theme=dark; api_component=eyJ' }), names)).toBe(true)
    expect(needsPrimary('GET', headers({ cookie: 'api_component_refresh=r' }), names)).toBe(true)
    expect(needsPrimary('GET', headers({ cookie: 'payload-token=t' }), names)).toBe(true)
    // A cookie whose name only contains a credential's name is not one.
    expect(needsPrimary('GET', headers({ cookie: 'my_api_component=x' }), names)).toBe(false)
  })

  it('onPrimary holds for everything it starts, and only there', async () => {
    expect(readsOnPrimary()).toBe(false)
    const inside = await onPrimary(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      return readsOnPrimary()
    })
    expect(inside).toBe(true)
    expect(readsOnPrimary()).toBe(false)
  })
})

describe('DATABASE_REPLICA_URLS', () => {
  it('is read as comma-separated PostgreSQL URLs', () => {
    expect(replicaUrls({})).toBeUndefined()
    expect(
      replicaUrls({
        DATABASE_URL: 'postgres://p/db',
        DATABASE_REPLICA_URLS: 'postgres://r1/db, postgresql://r2:5433/db',
      }),
    ).toEqual(['postgres://r1/db', 'postgresql://r2:5433/db'])
  })

  it('refuses an entry that is not a PostgreSQL URL, and replicas without DATABASE_URL', () => {
    expect(() => replicaUrls({ DATABASE_URL: 'postgres://p/db', DATABASE_REPLICA_URLS: 'postgres://r/db,r2' })).toThrow(
      'DATABASE_REPLICA_URLS: entry 2 is not a postgres:// URL',
    )
    expect(() => replicaUrls({ DATABASE_REPLICA_URLS: 'postgres://r/db' })).toThrow(/needs DATABASE_URL/)
  })
})

describe('the replicaWaitMs option', () => {
  it('defaults to 5000 ms, takes 0 (no wait), refuses anything else than whole milliseconds up to a minute', () => {
    expect(resolveOptions({}).replicaWaitMs).toBe(5000)
    expect(resolveOptions({ replicaWaitMs: 0 }).replicaWaitMs).toBe(0)
    for (const bad of [-1, 1.5, 60_001, Number.NaN, '100'])
      expect(() => resolveOptions({ replicaWaitMs: bad as never })).toThrow(/replicaWaitMs must be a whole number/)
  })
})

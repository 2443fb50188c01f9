/**
 * Policy on the endpoint, format in the serializer (issue 28): an endpoint
 * declares its `security` and its `cache`; the pipeline refuses callers
 * before the body is read and the handler runs (401 anonymous, 403 signed in
 * without the role), writes the Cache-Control header, and makes the JSON-LD
 * node of what the handler returned (`@context`, `@id`, `@type`). Shown
 * with endpoints an app adds as a plugin author does (custom.cwa.extensions).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { type HydraExtension, ROLE_ADMIN, ROLE_USER } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

/** How often each probe's handler ran: a refused caller must never reach it. */
const runs = new Map<string, number>()
const ran = (name: string) => runs.set(name, (runs.get(name) ?? 0) + 1)
const undocumented = { undocumented: 'a test endpoint (endpointPolicy.test.ts)' }

const probes: HydraExtension = {
  name: 'probes',
  endpoints: () => [
    {
      method: 'GET',
      path: '/_/probe/admin',
      security: { role: ROLE_ADMIN },
      cache: 'no-store',
      handler: async (ctx) => {
        ran('admin')
        return { status: 200, output: { type: 'Probe', id: `${ctx.options.apiPrefix}/_/probe/admin`, data: { ok: 1 } } }
      },
      docs: undocumented,
    },
    {
      method: 'POST',
      path: '/_/probe/admin',
      security: { role: ROLE_ADMIN },
      cache: 'no-store',
      handler: async (_ctx, { body }) => {
        ran('admin write')
        return { status: 201, output: { type: 'ProbeWrite', data: { received: body } } }
      },
      docs: undocumented,
    },
    {
      method: 'GET',
      path: '/_/probe/rules',
      security: [
        { role: ROLE_USER },
        { granted: (ctx) => ctx.query.get('let') === 'in', message: 'Not without let=in.' },
      ],
      handler: async () => {
        ran('rules')
        return { status: 200, output: { type: 'Probe', context: 'hydra', data: {} } }
      },
      docs: undocumented,
    },
    {
      method: 'GET',
      path: '/_/probe/signed_in',
      security: 'signed-in',
      handler: async () => {
        ran('signed in')
        return { status: 200, output: { type: 'Probe', context: { name: 'Probe' }, data: {} } }
      },
      docs: undocumented,
    },
    {
      method: 'GET',
      path: '/_/probe/lifetime',
      security: 'public',
      cache: { maxAge: 60, sharedMaxAge: 120 },
      handler: async () => ({
        status: 200,
        output: { type: 'Probe', context: { terms: { ok: 'Probe/ok' } }, data: {} },
      }),
      docs: undocumented,
    },
    {
      method: 'GET',
      path: '/_/probe/answer_cache',
      handler: async (ctx) => ({
        status: 200,
        body: { open: true },
        ...(ctx.query.has('private') ? { cache: 'no-store' as const } : {}),
      }),
      docs: undocumented,
    },
  ],
}

let site: MinimalSite
let admin: string
let user: string

beforeAll(async () => {
  site = await startMinimalSite({ extensions: [probes] })
  admin = await site.tokenFor('ROLE_ADMIN')
  user = await site.tokenFor('ROLE_USER')
})
afterAll(async () => {
  await site?.close()
})

describe('an endpoint declared with a role', () => {
  it('refuses an anonymous caller (401) and a signed-in caller without the role (403); its handler never runs', async () => {
    const anonymous = await site.get(`${site.prefix}/_/probe/admin`)
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toMatchObject({
      '@context': `${site.prefix}/contexts/Error`,
      '@type': 'Error',
      status: 401,
      detail: 'Full authentication is required to access this resource.',
    })
    const withoutRole = await site.get(`${site.prefix}/_/probe/admin`, { token: user })
    expect(withoutRole.status).toBe(403)
    expect(withoutRole.body).toMatchObject({ '@type': 'Error', status: 403, detail: 'Access Denied.' })
    expect(runs.get('admin')).toBeUndefined()

    const granted = await site.get(`${site.prefix}/_/probe/admin`, { token: admin })
    expect(granted.status).toBe(200)
    expect(runs.get('admin')).toBe(1)
  })

  it('refuses a write before its body is read: a caller without the role learns nothing from the body', async () => {
    const anonymous = await site.request('POST', `${site.prefix}/_/probe/admin`, undefined, { raw: '{not json' })
    expect(anonymous.status).toBe(401)
    const withoutRole = await site.request('POST', `${site.prefix}/_/probe/admin`, undefined, {
      raw: '{not json',
      token: user,
    })
    expect(withoutRole.status).toBe(403)
    expect(runs.get('admin write')).toBeUndefined()
    // The admin's malformed body is the admin's 400; a good one reaches the handler.
    const bad = await site.request('POST', `${site.prefix}/_/probe/admin`, undefined, {
      raw: '{not json',
      token: admin,
    })
    expect(bad.status).toBe(400)
    const good = await site.post(`${site.prefix}/_/probe/admin`, { a: 1 }, { token: admin })
    expect(good.status).toBe(201)
    expect(good.text).toBe(`{"@context":"${site.prefix}/contexts/Entrypoint","@type":"ProbeWrite","received":{"a":1}}`)
    expect(runs.get('admin write')).toBe(1)
  })

  it('a list of rules must all pass, in order; a rule carries its own 403 message', async () => {
    expect((await site.get(`${site.prefix}/_/probe/rules?let=in`)).status).toBe(401)
    const refused = await site.get(`${site.prefix}/_/probe/rules`, { token: user })
    expect(refused.status).toBe(403)
    expect(refused.body.detail).toBe('Not without let=in.')
    expect(runs.get('rules')).toBeUndefined()
    const granted = await site.get(`${site.prefix}/_/probe/rules?let=in`, { token: user })
    expect(granted.status).toBe(200)
    expect(granted.text).toBe('{"@context":"http://www.w3.org/ns/hydra/context.jsonld","@type":"Probe"}')
  })

  it("'signed-in' refuses anonymous reads too", async () => {
    expect((await site.get(`${site.prefix}/_/probe/signed_in`)).status).toBe(401)
    expect(runs.get('signed in')).toBeUndefined()
    const granted = await site.get(`${site.prefix}/_/probe/signed_in`, { token: user })
    expect(granted.text).toBe(`{"@context":"${site.prefix}/contexts/Probe","@type":"Probe"}`)
  })
})

describe('the cache policy', () => {
  it("'no-store' is written on every answer of the endpoint: the granted one, the 401 and the 403", async () => {
    for (const token of [undefined, user, admin]) {
      const response = await site.get(`${site.prefix}/_/probe/admin`, { token })
      expect([response.status, response.headers.get('cache-control')]).toEqual([response.status, 'private, no-store'])
    }
    const granted = await site.get(`${site.prefix}/_/probe/admin`, { token: admin })
    expect(granted.text).toBe(
      `{"@context":"${site.prefix}/contexts/Entrypoint","@id":"${site.prefix}/_/probe/admin","@type":"Probe","ok":1}`,
    )
  })

  it('a lifetime is public for anonymous reads only; a signed-in caller keeps private, no-store', async () => {
    const anonymous = await site.get(`${site.prefix}/_/probe/lifetime`)
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=120')
    expect(anonymous.text).toBe('{"@context":{"ok":"Probe/ok"},"@type":"Probe"}')
    const signedIn = await site.get(`${site.prefix}/_/probe/lifetime`, { token: user })
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store')
  })

  it("an answer's own policy applies where the endpoint declares none", async () => {
    expect((await site.get(`${site.prefix}/_/probe/answer_cache`)).headers.get('cache-control')).toBeNull()
    const private_ = await site.get(`${site.prefix}/_/probe/answer_cache?private`)
    expect(private_.headers.get('cache-control')).toBe('private, no-store')
    expect(private_.body).toEqual({ open: true })
  })
})

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'

/**
 * Issue 11, cross-site request forgery: a page of another site must not
 * write through either API with the visitor's cookie (or anonymously: a
 * login or a form submit). State-changing requests (POST, PATCH, PUT,
 * DELETE) whose Origin is not the request's own, or, without Origin, whose
 * Sec-Fetch-Site is cross-site, are refused with 403 unless Payload's
 * `csrf` / `cors` list names the origin. Requests with neither header
 * (curl, servers) and requests with an Authorization header (never sent by
 * a browser on its own) stay allowed.
 */

let server: TestServer
let token: string
const FOREIGN = 'https://evil.example'

beforeAll(async () => {
  server = await startTestServer()
  token = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

const titles = async () => (await server.sql('SELECT count(*)::int AS n FROM _acb_titles'))[0].n as number

function multipartTitle(title: string): { raw: string; contentType: string } {
  const boundary = 'csrf-boundary'
  return {
    raw: `--${boundary}\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n${JSON.stringify({ title })}\r\n--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

const restTitle = (headers: Record<string, string>) => {
  const { raw, contentType } = multipartTitle('csrf')
  return server.request('POST', '/api/titles', undefined, {
    raw,
    contentType,
    headers: { accept: 'application/json', cookie: `api_component=${token}`, ...headers },
  })
}

describe("Payload's REST API (/api)", () => {
  it('attack: a cross-site multipart POST /api/titles with the admin cookie and a foreign Origin is refused (403), nothing stored', async () => {
    const before = await titles()
    const response = await restTitle({ origin: FOREIGN })
    expect(response.status).toBe(403)
    expect(response.body.errors[0].message).toMatch(/Cross-site request refused/)
    expect(await titles()).toBe(before)
  })

  it('attack: without Origin, Sec-Fetch-Site: cross-site is refused; Origin: null too', async () => {
    expect((await restTitle({ 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await restTitle({ origin: 'null' })).status).toBe(403)
  })

  it('attack: PATCH and DELETE with a foreign Origin are refused; an anonymous cross-site login too', async () => {
    const created = await restTitle({})
    expect(created.status).toBe(201)
    const id = created.body.doc.id
    const cookie = { cookie: `api_component=${token}`, origin: FOREIGN, accept: 'application/json' }
    expect(
      (
        await server.patch(
          `/api/titles/${id}`,
          { title: 'changed' },
          { contentType: 'application/json', headers: cookie },
        )
      ).status,
    ).toBe(403)
    expect((await server.delete(`/api/titles/${id}`, { headers: cookie })).status).toBe(403)
    const login = await server.request(
      'POST',
      '/api/users/login',
      { email: 'a@example.com', password: 'x' },
      { contentType: 'application/json', headers: { origin: FOREIGN } },
    )
    expect(login.status).toBe(403)
  })

  it('the same origin, a same-origin fetch and a request with neither header (curl) are accepted', async () => {
    expect((await restTitle({ origin: server.url })).status).toBe(201)
    expect((await restTitle({ 'sec-fetch-site': 'same-origin' })).status).toBe(201)
    expect((await restTitle({})).status).toBe(201)
  })

  it("a bearer token is no ambient credential: Payload's own token in Authorization with a foreign Origin is accepted", async () => {
    await server.createUser('rest_bearer', ['ROLE_ADMIN'])
    const login = await server.request(
      'POST',
      '/api/users/login',
      { username: 'rest_bearer', password: PASSWORD },
      { contentType: 'application/json', headers: { accept: 'application/json' } },
    )
    expect(login.status).toBe(200)
    const { raw, contentType } = multipartTitle('bearer')
    const response = await server.request('POST', '/api/titles', undefined, {
      raw,
      contentType,
      headers: { accept: 'application/json', authorization: `JWT ${login.body.token}`, origin: FOREIGN },
    })
    expect(response.status).toBe(201)
  })

  it('reads are not concerned: a GET with a foreign Origin is answered', async () => {
    expect((await server.get('/api/titles', { headers: { origin: FOREIGN, accept: 'application/json' } })).status).toBe(
      200,
    )
  })
})

describe('the JSON-LD API (/_api)', () => {
  const cookie = () => ({ cookie: `api_component=${token}` })

  it('attack: a cookie-authenticated POST with a foreign Origin is a 403 Hydra error, nothing stored', async () => {
    const before = await titles()
    const response = await server.post(
      '/_api/component/titles',
      { title: 'csrf' },
      { headers: { ...cookie(), origin: FOREIGN } },
    )
    expect(response.status).toBe(403)
    expect(response.body['@type']).toBe('Error')
    expect(response.body.detail).toMatch(/Cross-site request refused/)
    expect(await titles()).toBe(before)
  })

  it('attack: Sec-Fetch-Site: cross-site without Origin, an anonymous cross-site login and a cross-site form submit are refused', async () => {
    expect(
      (
        await server.post(
          '/_api/component/titles',
          { title: 'csrf' },
          { headers: { ...cookie(), 'sec-fetch-site': 'cross-site' } },
        )
      ).status,
    ).toBe(403)
    const login = await server.post(
      '/_api/login',
      { username: 'nobody', password: 'x' },
      { contentType: 'application/json', headers: { origin: FOREIGN } },
    )
    expect(login.status).toBe(403)
    const submit = await server.post(
      '/_api/component/forms/password_reset/submit',
      { password_reset: {} },
      { contentType: 'application/json', headers: { origin: FOREIGN } },
    )
    expect(submit.status).toBe(403)
  })

  it('a bearer token is no ambient credential: a foreign Origin with Authorization is accepted', async () => {
    const response = await server.post(
      '/_api/component/titles',
      { title: 'bearer' },
      { token, headers: { origin: FOREIGN } },
    )
    expect(response.status).toBe(201)
  })

  it('the same origin, a same-site fetch without Origin and curl (neither header) are accepted; reads are answered', async () => {
    expect(
      (await server.post('/_api/component/titles', { title: 'own' }, { headers: { ...cookie(), origin: server.url } }))
        .status,
    ).toBe(201)
    expect(
      (
        await server.post(
          '/_api/component/titles',
          { title: 'same' },
          { headers: { ...cookie(), 'sec-fetch-site': 'same-origin' } },
        )
      ).status,
    ).toBe(201)
    expect((await server.post('/_api/component/titles', { title: 'curl' }, { headers: cookie() })).status).toBe(201)
    expect((await server.get('/_api/component/titles', { headers: { origin: FOREIGN } })).status).toBe(200)
  })
})

describe("an origin allowed by Payload's csrf or cors list", () => {
  it('may write on both APIs; cors "*" allows no one', async () => {
    const config = server.payload.config as { csrf: string[]; cors: unknown }
    const saved = { csrf: config.csrf, cors: config.cors }
    try {
      config.cors = '*'
      expect((await restTitle({ origin: FOREIGN })).status).toBe(403)
      config.cors = [FOREIGN]
      expect((await restTitle({ origin: FOREIGN })).status).toBe(201)
      config.cors = saved.cors
      config.csrf = [FOREIGN, server.url]
      expect(
        (
          await server.post(
            '/_api/component/titles',
            { title: 'allowed' },
            { headers: { cookie: `api_component=${token}`, origin: FOREIGN } },
          )
        ).status,
      ).toBe(201)
      expect((await restTitle({ origin: FOREIGN })).status).toBe(201)
    } finally {
      config.csrf = saved.csrf
      config.cors = saved.cors
    }
  })
})

describe("the site's own front ends (user.emailLinks.defaultOrigin and allowedOrigins) may write", () => {
  let front: TestServer
  beforeAll(async () => {
    front = await startTestServer({
      options: {
        user: { emailLinks: { defaultOrigin: 'https://www.example.org', allowedOrigins: ['https://front\\.example'] } },
      },
    })
  })
  afterAll(async () => {
    await front?.close()
  })

  it('on both APIs; any other origin is still refused', async () => {
    const jwt = await front.tokenFor('ROLE_ADMIN')
    for (const origin of ['https://front.example', 'https://www.example.org']) {
      expect(
        (
          await front.post(
            '/_api/component/titles',
            { title: 'front' },
            { headers: { cookie: `api_component=${jwt}`, origin } },
          )
        ).status,
      ).toBe(201)
      const rest = await front.request(
        'POST',
        '/api/titles',
        { title: 'front' },
        {
          contentType: 'application/json',
          headers: { accept: 'application/json', cookie: `api_component=${jwt}`, origin },
        },
      )
      expect(rest.status).toBe(201)
    }
    expect(
      (
        await front.post(
          '/_api/component/titles',
          { title: 'x' },
          { headers: { cookie: `api_component=${jwt}`, origin: 'https://front.example.evil.net' } },
        )
      ).status,
    ).toBe(403)
  })
})

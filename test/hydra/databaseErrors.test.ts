import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { classifyError } from '../../plugins/cwa/dist/hydra/errors.js'
import { requestInput } from '../../plugins/cwa/dist/hydra/requestInput.js'
import { cookieHeader, loginSession } from '../support/sessionCookies'
import { captureLogs } from '../support/logs'
import { startTestServer, type TestServer } from '../support/server'

/**
 * Issue 11: a database error mapped to a 4xx hid server bugs (the "null"
 * UUID answered 400, as if the client had sent it). A database error is a
 * 4xx only when the value it is about came from the request; otherwise it
 * is a 500 with a correlation id, in the body and in the log line, and the
 * log names the database's code and message, never the query's parameters.
 */

/** What node-postgres and drizzle throw: a DatabaseError wrapped in "Failed query ... params: ...". */
function failedQuery(code: string, message: string, params: string[]): Error {
  const cause = Object.assign(new Error(message), { code, severity: 'ERROR', routine: 'string_to_uuid' })
  return Object.assign(new Error(`Failed query: select 1 where id = $1\nparams: ${params.join(',')}`), {
    query: 'select 1 where id = $1',
    params,
    cause,
  })
}

describe('classifyError: the client is blamed only for what it sent', () => {
  const uuidError = (value: string) => failedQuery('22P02', `invalid input syntax for type uuid: "${value}"`, [value])

  it('fault: a value the request never held ("null" from the server\'s own query) is a 500', () => {
    const input = requestInput(new URL('http://x/_api/component/html_contents/2a1f0f0e-1111-4111-8111-111111111111'))
    expect(classifyError(uuidError('null'), true, 'GET', input).status).toBe(500)
  })

  it('a value from the query string, a path segment or the body is a 400 (a 422 violation on a write)', () => {
    expect(
      classifyError(uuidError('a'), true, 'GET', requestInput(new URL('http://x/api/pages?where[id][in]=a,b'))).status,
    ).toBe(400)
    expect(classifyError(uuidError('abc'), true, 'DELETE', requestInput(new URL('http://x/_api/x/abc'))).status).toBe(
      400,
    )
    expect(
      classifyError(uuidError('zzz'), false, 'POST', requestInput(new URL('http://x/_api/x'), { layout: 'zzz' }))
        .status,
    ).toBe(422)
  })

  it("a NUL the database cannot encode is the client's only when the client sent one", () => {
    const nul = failedQuery('22021', 'invalid byte sequence for encoding "UTF8": 0x00', ['%\u0000%'])
    expect(classifyError(nul, true, 'GET', requestInput(new URL('http://x/_api/_/pages?search=%00'))).status).toBe(400)
    expect(classifyError(nul, true, 'GET', requestInput(new URL('http://x/_api/_/pages?search=a'))).status).toBe(500)
  })
})

describe('through both APIs', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server?.close()
  })

  it('fault: a server-side database error on /_api is a 500 with a correlation id in the body and the log, no parameter logged', async () => {
    const logs = captureLogs(server.payload, 'error')
    const spy = jest
      .spyOn(server.payload, 'find')
      .mockRejectedValueOnce(failedQuery('22P02', 'invalid input syntax for type uuid: "null"', ['secret-parameter']))
    try {
      const response = await server.get('/_api/_/layouts')
      expect(response.status).toBe(500)
      const reference = response.body.correlationId
      expect(reference).toMatch(/^[0-9a-f-]{36}$/)
      expect(response.body.detail).toContain(reference)
      expect(logs.text()).toContain(reference)
      expect(logs.text()).toContain('22P02')
      expect(logs.text()).not.toContain('secret-parameter')
    } finally {
      spy.mockRestore()
      logs.restore()
    }
  })

  it("fault: a write whose database error is about a value the body never held (a trigger's own) is a 500, not a 422", async () => {
    const admin = await server.tokenFor('ROLE_ADMIN')
    await server.sql(`CREATE FUNCTION layout_server_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.reference = 'faulty' THEN RAISE EXCEPTION 'invalid value "computed-by-the-server"' USING ERRCODE = '22023'; END IF; RETURN NEW; END $$`)
    await server.sql(
      'CREATE TRIGGER layout_server_fault BEFORE INSERT ON _acb_layouts FOR EACH ROW EXECUTE FUNCTION layout_server_fault()',
    )
    const logs = captureLogs(server.payload, 'error')
    try {
      const response = await server.post(
        '/_api/_/layouts',
        { reference: 'faulty', uiComponent: 'PrimaryLayout' },
        { token: admin },
      )
      expect(response.status).toBe(500)
      expect(response.body.correlationId).toMatch(/^[0-9a-f-]{36}$/)
      expect(logs.text()).toContain(response.body.correlationId)
      // The same error about a value the body did hold is the client's: a 422 on the property.
      await server.sql(`CREATE OR REPLACE FUNCTION layout_server_fault() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.reference = 'faulty' THEN RAISE EXCEPTION 'invalid value "faulty"' USING ERRCODE = '22023'; END IF; RETURN NEW; END $$`)
      expect(
        (await server.post('/_api/_/layouts', { reference: 'faulty', uiComponent: 'PrimaryLayout' }, { token: admin }))
          .status,
      ).toBe(422)
    } finally {
      logs.restore()
      await server.sql('DROP TRIGGER layout_server_fault ON _acb_layouts')
      await server.sql('DROP FUNCTION layout_server_fault()')
    }
  })

  it('fault: a write PostgreSQL rolls back as a deadlock or serialization failure is a 503 with Retry-After on both APIs, nothing written, logged as a warning', async () => {
    const admin = await server.tokenFor('ROLE_ADMIN')
    await server.createUser('conflicts', ['ROLE_ADMIN'])
    const { jwt } = await loginSession(server, 'conflicts')
    await server.sql(`CREATE FUNCTION layout_conflict() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.reference LIKE 'conflict-%' THEN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = substr(NEW.reference, 10); END IF; RETURN NEW; END $$`)
    await server.sql(
      'CREATE TRIGGER layout_conflict BEFORE INSERT ON _acb_layouts FOR EACH ROW EXECUTE FUNCTION layout_conflict()',
    )
    const logs = captureLogs(server.payload, 'warn')
    try {
      for (const code of ['40P01', '40001']) {
        const jsonLd = await server.post(
          '/_api/_/layouts',
          { reference: `conflict-${code}`, uiComponent: 'PrimaryLayout' },
          { token: admin },
        )
        expect([jsonLd.status, jsonLd.headers.get('retry-after')]).toEqual([503, '1'])
        expect(jsonLd.body.detail).toMatch(/send it again/)
        const rest = await server.request(
          'POST',
          '/api/layouts',
          { reference: `conflict-${code}`, uiComponent: 'PrimaryLayout' },
          { contentType: 'application/json', headers: { accept: 'application/json', cookie: cookieHeader({ jwt }) } },
        )
        expect([rest.status, rest.headers.get('retry-after')]).toEqual([503, '1'])
        expect(rest.body.errors[0].message).toMatch(/send it again/)
      }
      expect(logs.text()).toContain('rolled back by a concurrent write')
      expect(logs.text()).toContain('40P01')
      expect(await server.sql(`SELECT 1 FROM _acb_layouts WHERE reference LIKE 'conflict-%'`)).toEqual([])
    } finally {
      logs.restore()
      await server.sql('DROP TRIGGER layout_conflict ON _acb_layouts')
      await server.sql('DROP FUNCTION layout_conflict()')
    }
  })

  it('fault: the same on /api is a 500 in Payload shape with a correlation id, logged with it', async () => {
    const logs = captureLogs(server.payload, 'error')
    const original = server.payload.db.find.bind(server.payload.db)
    server.payload.db.find = (async () => {
      throw failedQuery('22P02', 'invalid input syntax for type uuid: "null"', ['secret-parameter'])
    }) as never
    try {
      const response = await server.get('/api/layouts', { headers: { accept: 'application/json' } })
      expect(response.status).toBe(500)
      const reference = response.body.errors[0].correlationId
      expect(reference).toMatch(/^[0-9a-f-]{36}$/)
      expect(logs.text()).toContain(`correlation id ${reference}`)
    } finally {
      server.payload.db.find = original
      logs.restore()
    }
  })

  it('a database error about a value sent stays a 400 and is logged at info level', async () => {
    const logs = captureLogs(server.payload, 'info')
    try {
      const response = await server.get('/_api/_/layouts?search=%00')
      expect(response.status).toBe(400)
      expect(logs.text()).toContain('22021')
      const rest = await server.get('/api/layouts?where[id][in]=a,b', { headers: { accept: 'application/json' } })
      expect(rest.status).toBe(400)
      expect(rest.body.errors[0].message).toMatch(/cannot process/)
    } finally {
      logs.restore()
    }
  })
})

/**
 * Issue 39, POST {prefix}/_/preview (the preview links' exchange) against bad input: a body that is not JSON, a
 * token of the wrong type, missing, empty or huge, and a string that is no link are refused with a 4xx and the
 * contract's error body, never a 500; the exchange writes nothing (there is nothing to write).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.close())

const exchange = (body: string, type = 'application/json') =>
  fetch(`${server.url}/_api/_/preview`, { method: 'POST', headers: { 'content-type': type }, body })

describe('the preview links’ exchange, bad input', () => {
  it('answers malformed bodies and wrong types with 400, a non-JSON type with 415, a string that is no link with 401', async () => {
    for (const body of ['{', '[]', '{}', '{"token": 42}', '{"token": ""}', `{"token": "${'a'.repeat(5000)}"}`]) {
      const response = await exchange(body)
      expect({ body: body.slice(0, 20), status: response.status }).toEqual({ body: body.slice(0, 20), status: 400 })
    }
    expect((await exchange('token=x', 'application/x-www-form-urlencoded')).status).toBe(415)
    const forged = await exchange(JSON.stringify({ token: 'eyJhbGciOiJub25lIn0.e30.' }))
    expect(forged.status).toBe(401)
    expect(((await forged.json()) as { detail: string }).detail).toBe('This is not a preview link.')
  })
})

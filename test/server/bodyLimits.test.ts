import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import { startTestServer, type TestServer } from '../support/server'

/**
 * Issue 11: body limits on both APIs. Anonymous bodies (login, registration,
 * form submits) are capped at 64 KiB, signed-in ones at 21 MiB, on /_api
 * and on Payload's REST API (/api), which read any body whole before. A
 * declared Content-Length past the limit is refused before the body is read.
 */

let server: TestServer
let token: string

beforeAll(async () => {
  server = await startTestServer()
  token = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

const KiB = 1024
const MiB = 1024 * 1024

/** Streams `total` bytes (1 MiB chunks) until the server answers; returns its status and how much was written by then. */
function stream(
  path: string,
  total: number,
  headers: Record<string, string>,
): Promise<{ status: number; written: number; body: string }> {
  const url = new URL(server.url)
  return new Promise((resolve, reject) => {
    let written = 0
    let answered = false
    const request = http.request({ host: url.hostname, port: url.port, method: 'POST', path, headers }, (response) => {
      answered = true
      const chunks: Buffer[] = []
      response.on('data', (c: Buffer) => chunks.push(c))
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          written,
          body: Buffer.concat(chunks as unknown as Uint8Array[]).toString('utf8'),
        }),
      )
    })
    request.on('error', (error) => (answered ? undefined : reject(error)))
    const chunk = Buffer.alloc(MiB, 0x61)
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.length
        if (!request.write(chunk)) return void request.once('drain', pump)
      }
      if (!answered) request.end()
    }
    pump()
  })
}

const jsonBody = (bytes: number) => JSON.stringify({ username: 'x'.repeat(bytes), password: 'y' })

describe('attack: an anonymous 100 MB body is refused with 413 without being read', () => {
  for (const path of ['/api/users/login', '/_api/login']) {
    it(`POST ${path}, Content-Length 100 MB: 413 before the body is read`, async () => {
      const result = await stream(path, 100 * MiB, {
        'content-type': 'application/json',
        'content-length': String(100 * MiB),
      })
      expect(result.status).toBe(413)
      expect(result.written).toBeLessThan(20 * MiB)
    })

    it(`POST ${path}, chunked (no Content-Length): 413 once past 64 KiB`, async () => {
      const result = await stream(path, 100 * MiB, {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      })
      expect(result.status).toBe(413)
      expect(result.written).toBeLessThan(20 * MiB)
    })
  }
})

describe('anonymous JSON bodies: 64 KiB on both APIs', () => {
  it('/api/users/login: 65 KiB is a 413 in Payload shape; 60 KiB reaches the login (a refusal, not a 413)', async () => {
    const big = await server.request('POST', '/api/users/login', undefined, {
      raw: jsonBody(65 * KiB),
      contentType: 'application/json',
      headers: { accept: 'application/json' },
    })
    expect(big.status).toBe(413)
    expect(big.body.errors[0].message).toMatch(/64 KiB/)
    const small = await server.request('POST', '/api/users/login', undefined, {
      raw: jsonBody(60 * KiB),
      contentType: 'application/json',
      headers: { accept: 'application/json' },
    })
    expect(small.status).not.toBe(413)
    expect(small.status).toBeLessThan(500)
  })

  it('/_api/login and a form submit: 65 KiB is a 413 Hydra error; 60 KiB reaches the endpoint', async () => {
    const big = await server.post('/_api/login', undefined, {
      raw: jsonBody(65 * KiB),
      contentType: 'application/json',
    })
    expect(big.status).toBe(413)
    expect(big.body['@type']).toBe('Error')
    expect(big.body.detail).toMatch(/64 KiB/)
    const small = await server.post('/_api/login', undefined, {
      raw: jsonBody(60 * KiB),
      contentType: 'application/json',
    })
    expect(small.status).not.toBe(413)
    expect(small.status).toBeLessThan(500)
    const submit = await server.post('/_api/component/forms/password_reset/submit', undefined, {
      raw: jsonBody(65 * KiB),
      contentType: 'application/json',
    })
    expect(submit.status).toBe(413)
  })
})

describe('signed-in bodies: up to 21 MiB on both APIs', () => {
  const html = (bytes: number) => JSON.stringify({ html: `<p>${'z'.repeat(bytes)}</p>` })

  it('a 1 MiB body of a signed-in caller is accepted on /_api (bearer) and /api (session cookie)', async () => {
    expect((await server.post('/_api/component/html_contents', undefined, { token, raw: html(MiB) })).status).toBe(201)
    const rest = await server.request('POST', '/api/html_contents', undefined, {
      raw: html(MiB),
      contentType: 'application/json',
      headers: { accept: 'application/json', cookie: `api_component=${token}` },
    })
    expect(rest.status).toBe(201)
  })

  it('past 21 MiB a signed-in caller gets a 413 too', async () => {
    const rest = await stream('/api/html_contents', 22 * MiB, {
      'content-type': 'application/json',
      'content-length': String(22 * MiB),
      cookie: `api_component=${token}`,
    })
    expect(rest.status).toBe(413)
    const api = await stream('/_api/component/html_contents', 22 * MiB, {
      'content-type': 'application/ld+json',
      'content-length': String(22 * MiB),
      authorization: `Bearer ${token}`,
    })
    expect(api.status).toBe(413)
  })

  it('a forged cookie does not lift the anonymous limit on /api', async () => {
    const forged = await server.request('POST', '/api/html_contents', undefined, {
      raw: html(100 * KiB),
      contentType: 'application/json',
      headers: { accept: 'application/json', cookie: 'api_component=forged; payload-token=forged' },
    })
    expect(forged.status).toBe(413)
  })
})

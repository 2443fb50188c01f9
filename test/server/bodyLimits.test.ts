import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import net from 'node:net'
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

/**
 * A client that writes its whole body before it reads the answer (as
 * Python's requests and many simple clients do), on a raw socket: the
 * answer it then reads, or the socket error (EPIPE, ECONNRESET) that ended
 * its writing, when the server closed while it was still sending.
 */
function sendWholeThenRead(
  path: string,
  total: number,
  framing: 'content-length' | 'chunked',
): Promise<{ status?: number; body: string; error?: string }> {
  const url = new URL(server.url)
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname)
    let received = ''
    let error: string | undefined
    let late: NodeJS.Timeout | undefined
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => (received += d))
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code))
    const answer = () => {
      clearTimeout(late)
      const [head = '', ...rest] = received.split('\r\n\r\n')
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]
      resolve({ status: status ? Number(status) : undefined, body: rest.join('\r\n\r\n'), error })
      socket.destroy()
    }
    socket.on('close', answer)
    const chunk = new Uint8Array(MiB).fill(0x61)
    const frame = (part: Uint8Array): Array<string | Uint8Array> =>
      framing === 'chunked' ? [`${part.length.toString(16)}\r\n`, part, '\r\n'] : [part]
    const write = (data: string | Uint8Array) => new Promise<void>((done) => socket.write(data, () => done()))
    socket.once('connect', async () => {
      await write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
          (framing === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${total}\r\n`) +
          'Connection: close\r\n\r\n',
      )
      for (let written = 0; written < total && !error; written += chunk.length)
        for (const piece of frame(chunk)) await write(piece)
      if (framing === 'chunked' && !error) await write('0\r\n\r\n')
      // Written whole (or failed): only now does this client read the answer.
      if (error) return answer()
      // It asked for Connection: close: the server closes once the answer is sent (and the body dropped).
      late = setTimeout(answer, 10_000)
    })
  })
}

describe('attack: a 30 MB anonymous body ends in EPIPE (the early 413 never read) unless the server reads the rest before closing', () => {
  for (const [path, message] of [
    ['/api/users/login', (body: string) => JSON.parse(body).errors[0].message],
    ['/_api/login', (body: string) => JSON.parse(body).detail],
  ] as const) {
    for (const framing of ['content-length', 'chunked'] as const) {
      it(`POST ${path} (${framing}): the client writing 30 MB reads the whole 413 and its message`, async () => {
        const result = await sendWholeThenRead(path, 30 * MiB, framing)
        expect(result.error).toBeUndefined()
        expect(result.status).toBe(413)
        expect(message(result.body)).toMatch(/64 KiB/)
      })
    }
  }
})

describe('attack: a refused body trickled forever holds its connection (the lingering read must be bounded)', () => {
  it('after the 413, a client that keeps the body unfinished is disconnected within 5 s (LINGER_MS)', async () => {
    const url = new URL(server.url)
    const started = Date.now()
    const seen = await new Promise<{ answer: string; closedAfter: number }>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname)
      let answer = ''
      socket.setEncoding('utf8')
      socket.on('data', (d: string) => (answer += d))
      socket.on('error', () => {})
      socket.on('close', () => resolve({ answer, closedAfter: Date.now() - started }))
      socket.write(
        `POST /_api/login HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${100 * MiB}\r\n\r\n{"username":"`,
      )
      // A byte a second: never finishing, never idle.
      const trickle = setInterval(() => socket.write('x'), 1000)
      socket.on('close', () => clearInterval(trickle))
    })
    expect(seen.answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(seen.closedAfter).toBeGreaterThanOrEqual(4_500)
    expect(seen.closedAfter).toBeLessThan(8_000)
  }, 15_000)
})

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

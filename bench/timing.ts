/**
 * Timing side channels, measured (a test run is too noisy to assert them):
 * - login: an unknown username against a known one with a wrong password.
 *   The unknown one must cost a password hash too, or response times tell
 *   which usernames exist.
 * - password reset request with passwordReset.concealUnknownUsers: an
 *   unknown identifier against a real send. The concealed answer waits
 *   about as long as a send, or response times tell which accounts exist.
 * Runs its own site on a fresh database (BENCH_PG_URL, default the local
 * server) sending to an SMTP sink on loopback, prints the medians and
 * whether they are alike (the bounds the tests used to assert), and throws
 * nothing: like the rest of the bench, it informs. BENCH_TIMING_ROUNDS
 * sets the number of measured requests per side (default 15).
 */
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { SMTPServer } from 'smtp-server'
import { buildSiteConfig } from '../payload.config'
import { closePayload, loadJwtKeys } from 'payload-cwa'
import { createApp } from 'payload-cwa/express'
import { startPayload } from '../src/server/bootstrap'

const PG = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '')
const DB = 'cwa_bench_timing'
const ROUNDS = Number(process.env.BENCH_TIMING_ROUNDS ?? 15)
const PASSWORD = 'timing password, not a secret'
const ORIGIN = 'https://front.example'

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG}/postgres` })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** An SMTP server on loopback that takes every message and keeps none. */
async function smtpSink(): Promise<{ dsn: string; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      stream.on('data', () => {})
      stream.on('end', () => callback())
    },
  })
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address()
  return { dsn: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Milliseconds a request takes, after checking its status. */
async function timed(url: string, init: RequestInit, status: number): Promise<number> {
  const started = performance.now()
  const response = await fetch(url, init)
  await response.arrayBuffer()
  const ms = performance.now() - started
  if (response.status !== status)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status}, expected ${status}`)
  return ms
}

export async function measureTiming(): Promise<void> {
  process.env.CWA_DATA_DIR ??= '.data/bench'
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  await admin(`CREATE DATABASE ${DB}`)
  const smtp = await smtpSink()
  // The mail adapter reads MAILER_DSN while the config is built.
  const previousDsn = process.env.MAILER_DSN
  process.env.MAILER_DSN = smtp.dsn
  const config = buildSiteConfig({
    databaseUrl: `${PG}/${DB}`,
    options: { user: { emailLinks: { defaultOrigin: ORIGIN }, passwordReset: { concealUnknownUsers: true } } },
  })
  if (previousDsn === undefined) delete process.env.MAILER_DSN
  else process.env.MAILER_DSN = previousDsn
  const payload = await startPayload({ config, key: 'bench-timing' })
  const server = createApp({ payload, keys: await loadJwtKeys(process.env) }).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    const createUser = (username: string) =>
      payload.create({
        collection: 'users',
        data: {
          username,
          email: `${username}@example.com`,
          password: PASSWORD,
          roles: ['ROLE_USER'],
          enabled: true,
          emailAddressVerified: true,
        } as never,
        depth: 0,
      })
    // Each attempt from its own address (the site trusts X-Forwarded-For from loopback): the login
    // throttle would answer 429 after a few failures from one address on one account.
    let attempt = 0
    const login = (username: string) => {
      attempt++
      return {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': `198.18.${Math.floor(attempt / 250)}.${(attempt % 250) + 1}`,
        },
        body: JSON.stringify({ username, password: 'not the password' }),
      }
    }
    const reset = (identifier: string) => `${base}/_api/password/reset/request/${encodeURIComponent(identifier)}`

    await createUser('timing_known')
    // Warm-up: the first requests pay for compilation and connections, and the service learns how long a send takes.
    for (let i = 0; i < 3; i++) {
      await timed(`${base}/_api/login`, login('timing_known'), 401)
      await createUser(`warm_${i}`)
      await timed(reset(`warm_${i}`), {}, 200)
    }

    const unknownLogin: number[] = []
    const wrongPassword: number[] = []
    const realSend: number[] = []
    const concealed: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      unknownLogin.push(await timed(`${base}/_api/login`, login(`ghost_${i}`), 401))
      wrongPassword.push(await timed(`${base}/_api/login`, login('timing_known'), 401))
      // A fresh user per send: the repeat wait would answer a second request at once (429).
      await createUser(`timing_${i}`)
      realSend.push(await timed(reset(`timing_${i}`), {}, 200))
      concealed.push(await timed(reset(`phantom_${i}`), {}, 200))
    }

    const rows: string[][] = [['timing (median of ' + ROUNDS + ')', 'unknown ms', 'known ms', 'ratio', 'alike']]
    const row = (name: string, unknown: number[], known: number[], alike: (u: number, k: number) => boolean) => {
      const u = median(unknown)
      const k = median(known)
      rows.push([
        name,
        u.toFixed(1),
        k.toFixed(1),
        (u / k).toFixed(2),
        alike(u, k) ? 'yes' : 'NO: the difference tells which accounts exist',
      ])
    }
    // The bounds the tests asserted before the measurement moved here.
    row('login: unknown username / wrong password', unknownLogin, wrongPassword, (u, k) => u > k * 0.5)
    row('reset request (concealed): unknown / real send', concealed, realSend, (u, k) => u > k * 0.5 && u < k * 2 + 20)
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
    console.log('')
    for (const line of rows) console.log(line.map((cell, i) => cell.padEnd(widths[i]!)).join('  '))
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    ;(payload.db as unknown as { pool?: { on(event: 'error', fn: () => void): void } }).pool?.on('error', () => {})
    await closePayload(payload)
    await smtp.close()
    await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  }
}

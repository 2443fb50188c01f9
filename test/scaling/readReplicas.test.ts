/**
 * Issue 26, read replicas: the reference site started with DATABASE_REPLICA_URLS against a real streaming
 * replica (Debian's PostgreSQL: a primary cluster and a `pg_basebackup -R` copy following it, on loopback).
 * Anonymous reads are served by the replica; a signed-in caller reads from the primary; a write through the API is
 * answered once the replica has applied it, so the next anonymous read sees it; a replica that stops applying
 * delays a write by the bounded wait, never more, and the log says so.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
import type { Payload } from 'payload'
import { closePayload } from 'payload-cwa'
import { buildSiteConfig } from '../../payload.config'
import { startPayload } from '../../src/server/bootstrap'
import { startReplication, type Replication } from '../support/replication'
import { cleanupSites, startSite } from '../support/site'
import { waitFor } from '../support/wait'

const PASSWORD = 'replica test password'
const WAIT_MS = 1500
let replication: Replication
let base: string
let output: () => string
let token: string
let primary: pg.Client
/** A published Text component of the demo and its table. */
let component: { path: string; table: string; id: string }

const anonymous = async (path: string) =>
  (await fetch(`${base}${path}`, { headers: { accept: 'application/ld+json' } })).json() as Promise<
    Record<string, unknown>
  >
const signedIn = async (path: string) =>
  (
    await fetch(`${base}${path}`, { headers: { accept: 'application/ld+json', authorization: `Bearer ${token}` } })
  ).json() as Promise<Record<string, unknown>>

/** A signed-in PATCH: its status, its body's IRI and how long it took to answer. */
async function patch(path: string, body: unknown): Promise<{ status: number; ms: number; iri: string }> {
  const started = performance.now()
  const response = await fetch(`${base}${path}`, {
    method: 'PATCH',
    headers: {
      accept: 'application/ld+json',
      'content-type': 'application/merge-patch+json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  })
  const answer = (await response.json()) as { '@id'?: string }
  return { status: response.status, ms: performance.now() - started, iri: answer['@id'] ?? '' }
}

beforeAll(async () => {
  replication = await startReplication()
  primary = new pg.Client({ connectionString: replication.primaryUrl('postgres') })
  await primary.connect()
  await primary.query('CREATE DATABASE cwa')
  const site = await startSite({
    DATABASE_URL: replication.primaryUrl('cwa'),
    DATABASE_REPLICA_URLS: replication.replicaUrl('cwa'),
    DATABASE_REPLICA_WAIT_MS: String(WAIT_MS),
  })
  ;({ base, output } = site)
  // An admin, made through Payload in this process on the primary.
  const payload: Payload = await startPayload({
    config: buildSiteConfig({ databaseUrl: replication.primaryUrl('cwa') }),
    key: `replicas_${process.pid}`,
    migrate: false,
  })
  await payload.create({
    collection: 'users',
    data: {
      username: 'replicas',
      email: 'replicas@example.com',
      password: PASSWORD,
      roles: ['ROLE_SUPER_ADMIN'],
      enabled: true,
      emailAddressVerified: true,
    } as never,
  })
  const published = await payload.find({
    collection: 'html_contents',
    where: { publishedAt: { exists: true } },
    limit: 1,
    depth: 0,
  })
  const table = (payload.db as unknown as { tableNameMap: Map<string, string> }).tableNameMap.get('html_contents')!
  await closePayload(payload)
  const id = String(published.docs[0]!.id)
  component = { path: `/_api/component/html_contents/${id}`, table, id }
  const login = await fetch(`${base}/_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'replicas', password: PASSWORD }),
  })
  expect(login.status).toBe(204)
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('api_component='))!
  token = decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!)
}, 180_000)

afterAll(async () => {
  await replication?.resumeReplay().catch(() => {})
  await primary?.end()
  cleanupSites()
  replication?.stop()
})

describe('read replicas (DATABASE_REPLICA_URLS)', () => {
  it('serves anonymous reads from the replica and a signed-in caller from the primary', async () => {
    // Each read with a query of its own: the read model (on, as by default) computes it, on the replica; a change in
    // plain SQL is not a write it sees, so a read it had stored would stay as it was.
    let read = 0
    const fresh = () => anonymous(`${component.path}?read=${++read}`)
    const before = (await fresh()).html
    // A change the replica has received but not applied: only the primary answers it.
    await replication.pauseReplay()
    try {
      const cwa = new pg.Client({ connectionString: replication.primaryUrl('cwa') })
      await cwa.connect()
      await cwa.query(`UPDATE "${component.table}" SET html = '<p>ONLY-ON-THE-PRIMARY</p>' WHERE id = $1`, [
        component.id,
      ])
      await cwa.end()
      expect((await fresh()).html).toBe(before)
      expect((await signedIn(component.path)).html).toBe('<p>ONLY-ON-THE-PRIMARY</p>')
    } finally {
      await replication.resumeReplay()
    }
    await waitFor(async () => (await fresh()).html === '<p>ONLY-ON-THE-PRIMARY</p>', {
      message: 'the replica to apply the change',
    })
  })

  it('answers a write once the replica applied it: the next anonymous read sees it (read after write)', async () => {
    // The replica applies each commit 400 ms after it was made: without the wait, the read below is stale.
    await replication.onReplica('postgres', "ALTER SYSTEM SET recovery_min_apply_delay = '400ms'")
    await replication.onReplica('postgres', 'SELECT pg_reload_conf()')
    try {
      for (const round of [1, 2, 3]) {
        const html = `<p>LIVE-ROUND-${round}</p>`
        // A signed-in PATCH of a published record goes to its draft; publishing it writes the live record.
        const draft = await patch(component.path, { html })
        expect(draft.status).toBe(200)
        const publish = await patch(draft.iri, { publishedAt: new Date(Date.now() - 60_000).toISOString() })
        expect(publish.status).toBe(200)
        const answeredAfter = publish.ms
        expect((await anonymous(component.path)).html).toBe(html)
        // It waited for the replica's delay.
        expect(answeredAfter).toBeGreaterThanOrEqual(350)
      }
    } finally {
      await replication.onReplica('postgres', 'ALTER SYSTEM RESET recovery_min_apply_delay')
      await replication.onReplica('postgres', 'SELECT pg_reload_conf()')
    }
  })

  it('waits at most DATABASE_REPLICA_WAIT_MS for a replica that stopped applying, and logs it', async () => {
    await replication.pauseReplay()
    try {
      const write = await patch(component.path, { html: '<p>WHILE-THE-REPLICA-IS-PAUSED</p>' })
      expect(write.status).toBe(200)
      expect(write.ms).toBeGreaterThanOrEqual(WAIT_MS - 50)
      expect(write.ms).toBeLessThan(WAIT_MS * 3)
      expect(output()).toMatch(/Read replica 1 has not applied a committed write within 1500 ms/)
      // The write itself is saved: the signed-in caller (on the primary) reads it.
      const draft = await signedIn(component.path)
      expect(JSON.stringify(draft)).toContain('WHILE-THE-REPLICA-IS-PAUSED')
    } finally {
      await replication.resumeReplay()
    }
  })
})

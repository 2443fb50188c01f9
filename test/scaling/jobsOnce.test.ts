/**
 * Issue 26, jobs once: every instance starts Payload's jobs runner (the default), yet each job runs once. Payload's
 * runner reads the jobs to run, then marks them, so runners ticking at the same second take the same jobs; the
 * plugin makes one instance the runner by election (a PostgreSQL advisory lock, core/jobs/runnerElection.ts).
 * Three Payload instances on one database, ticking every second; twenty jobs that each record which instance ran
 * them; then the runner stops and another takes over.
 */
import { postgresAdapter } from '@payloadcms/db-postgres'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { buildConfig, getPayload, type Payload, type TaskConfig } from 'payload'
import { closePayload, cwaPlugin } from 'payload-cwa'
import pg from 'pg'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { waitFor } from '../support/wait'

const name = `cwa_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`
const instances: Payload[] = []
let sql: pg.Client

/** A task that records its job and the instance that ran it, taking a moment (runs overlap the next tick). */
const recordRun: TaskConfig = {
  slug: 'recordRun',
  inputSchema: [{ name: 'n', type: 'number' }],
  handler: async ({ job, req }) => {
    await new Promise((r) => setTimeout(r, 150))
    await (req.payload.db as unknown as { pool: pg.Pool }).pool.query(
      'INSERT INTO probe.job_runs (job_id, instance) VALUES ($1, $2)',
      [String(job.id), (req.payload.config.custom as { instance: string }).instance],
    )
    return { output: {} }
  },
} as TaskConfig

/** A job that takes two seconds, recording its start and its end. */
const slowRun: TaskConfig = {
  slug: 'slowRun',
  handler: async ({ job, req }) => {
    const pool = (req.payload.db as unknown as { pool: pg.Pool }).pool
    await pool.query("INSERT INTO probe.job_runs (job_id, instance) VALUES ($1, 'started')", [String(job.id)])
    await new Promise((r) => setTimeout(r, 2_000))
    await pool.query("INSERT INTO probe.job_runs (job_id, instance) VALUES ($1, 'finished')", [String(job.id)])
    return { output: {} }
  },
} as TaskConfig

async function instance(label: string): Promise<Payload> {
  const config = await buildConfig({
    secret: 'jobs-once-test-secret',
    db: postgresAdapter({
      pool: { connectionString: databaseUrl(name), options: '-c jit=off' },
      idType: 'uuid',
      push: true,
    }),
    plugins: [cwaPlugin()],
    jobs: { autoRun: [{ cron: '* * * * * *', allQueues: true, limit: 5 }], tasks: [recordRun, slowRun] },
    custom: { instance: label },
    typescript: { autoGenerate: false },
    admin: { importMap: { autoGenerate: false } },
    telemetry: false,
  })
  const payload = await getPayload({ config, key: `${name}-${label}`, cron: true })
  ;(payload.db as unknown as { pool?: { on(event: 'error', fn: () => void): void } }).pool?.on('error', () => {})
  instances.push(payload)
  return payload
}

const runs = async () =>
  (await sql.query<{ job_id: string; instance: string }>('SELECT job_id, instance FROM probe.job_runs')).rows

async function queue(payload: Payload, count: number): Promise<string[]> {
  const ids: string[] = []
  for (let n = 0; n < count; n++)
    ids.push(
      String(((await payload.jobs.queue({ task: 'recordRun' as never, input: { n } as never })) as { id: unknown }).id),
    )
  return ids
}

beforeAll(async () => {
  await withAdminClient((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE template0`))
  sql = new pg.Client({ connectionString: databaseUrl(name) })
  await sql.connect()
  // Its own schema: Payload's schema push (public) must not offer to drop it.
  await sql.query('CREATE SCHEMA probe; CREATE TABLE probe.job_runs (job_id text NOT NULL, instance text NOT NULL)')
  // One after another: the first pushes the schema, the others find it.
  for (const label of ['a', 'b', 'c']) await instance(label)
}, 180_000)

afterAll(async () => {
  for (const payload of instances) await closePayload(payload)
  await sql?.end()
  await dropDatabase(name)
})

describe('three instances, each with the jobs runner on', () => {
  it('run each job once, all on the elected instance; when it stops, another takes over and still runs each once', async () => {
    const first = await queue(instances[0]!, 20)
    await waitFor(async () => (await runs()).length >= first.length, { timeout: 60_000, message: 'the jobs to run' })
    // A few more ticks: a job taken twice would show up now.
    await new Promise((r) => setTimeout(r, 2_500))
    const ran = await runs()
    expect(ran.map((r) => r.job_id).sort()).toEqual([...first].sort())
    const runners = [...new Set(ran.map((r) => r.instance))]
    expect(runners).toHaveLength(1)

    // The runner stops (a rolling restart): one of the others is elected at its next tick.
    const leader = instances.find((p) => (p.config.custom as { instance: string }).instance === runners[0])!
    await closePayload(leader)
    instances.splice(instances.indexOf(leader), 1)
    const second = await queue(instances[0]!, 10)
    await waitFor(async () => (await runs()).length >= first.length + second.length, {
      timeout: 60_000,
      message: 'the jobs to run on another instance',
    })
    await new Promise((r) => setTimeout(r, 2_500))
    const after = (await runs()).filter((r) => second.includes(r.job_id))
    expect(after.map((r) => r.job_id).sort()).toEqual([...second].sort())
    expect(new Set(after.map((r) => r.instance)).size).toBe(1)
    expect(after[0]!.instance).not.toBe(runners[0])
  }, 180_000)

  it('a runner stopped in the middle of a job finishes it first (a rolling restart cuts no job in half)', async () => {
    const { id } = (await instances[0]!.jobs.queue({ task: 'slowRun' as never, input: {} as never })) as { id: unknown }
    const marks = async () =>
      (
        await sql.query<{ instance: string }>('SELECT instance FROM probe.job_runs WHERE job_id = $1', [String(id)])
      ).rows.map((r) => r.instance)
    await waitFor(async () => (await marks()).includes('started'), {
      timeout: 30_000,
      message: 'the slow job to start',
    })
    // Whichever instance runs it is closed now, as SIGTERM closes it.
    for (const payload of instances.splice(0)) await closePayload(payload)
    expect(await marks()).toEqual(['started', 'finished'])
    const job = await sql.query<{ completed_at: Date | null }>('SELECT completed_at FROM payload_jobs WHERE id = $1', [
      String(id),
    ])
    expect(job.rows[0]?.completed_at).not.toBeNull()
  }, 120_000)
})

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { getPayload } from 'payload'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'
import { title } from '../support/componentTree'

/**
 * The orphan scan as a Payload job (orphanedResources.scanIn 'job'): POST
 * /_/orphaned_resources/scan answers 202 at once and the jobs runner
 * refreshes the report; orphanedResources.schedule queues scans on a cron
 * schedule. The runner here is the one `npm start` starts (Payload's
 * jobs.autoRun, CWA_JOBS_CRON), on this server's Payload instance.
 */

let server: TestServer
let admin: string
const previousCron = process.env.CWA_JOBS_CRON

beforeAll(async () => {
  process.env.CWA_JOBS_CRON = '* * * * * *'
  server = await startTestServer({ options: { orphanedResources: { scanIn: 'job', schedule: '0 0 1 1 *' } } })
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
  if (previousCron === undefined) delete process.env.CWA_JOBS_CRON
  else process.env.CWA_JOBS_CRON = previousCron
})

describe('scanIn: job', () => {
  it('POST scan queues a job and answers 202 before the scan; running the queue refreshes the report', async () => {
    const orphan = await title(server.payload)
    const response = await server.post('/_api/_/orphaned_resources/scan', undefined, { token: admin })
    expect(response.status).toBe(202)
    expect(response.body.job).toEqual(expect.any(String))
    expect((await server.get('/_api/_/orphaned_resources', { token: admin })).status).toBe(404)
    const [job] = await server.sql('SELECT task_slug, completed_at FROM payload_jobs WHERE id = $1', [
      response.body.job,
    ])
    expect(job).toMatchObject({ task_slug: 'cwaOrphanScan', completed_at: null })

    await server.payload.jobs.run({ allQueues: true })
    const report = await server.get('/_api/_/orphaned_resources', { token: admin })
    expect(report.status).toBe(200)
    expect(report.body.components).toContain(`/_api/component/titles/${orphan}`)
    // Payload deletes a job once it completed (deleteJobOnComplete); a failed one would stay with has_error.
    expect(await server.sql('SELECT id FROM payload_jobs WHERE id = $1', [response.body.job])).toEqual([])
  })

  it('the scheduled scan is declared on the task (orphanedResources.schedule)', () => {
    const task = server.payload.config.jobs.tasks?.find((t) => t.slug === 'cwaOrphanScan')
    expect(task?.schedule).toEqual([expect.objectContaining({ cron: '0 0 1 1 *', queue: 'default' })])
    // Queued by the elected jobs runner only (test/scaling/jobsOnce.test.ts).
    expect(typeof task?.schedule?.[0]?.hooks?.beforeSchedule).toBe('function')
  })

  it('the runner npm start starts (jobs.autoRun) works a queued scan without anyone running the queue', async () => {
    // startPayload({ cron: true }) does this once the schema is migrated (src/server/bootstrap.ts).
    await getPayload({ config: server.payload.config, key: server.database, cron: true })
    const before = (await server.get('/_api/_/orphaned_resources', { token: admin })).body.generatedAt
    const orphan = await title(server.payload)
    expect((await server.post('/_api/_/orphaned_resources/scan', undefined, { token: admin })).status).toBe(202)
    await waitFor(
      async () => {
        const report = await server.get('/_api/_/orphaned_resources', { token: admin })
        return report.body.generatedAt > before && report.body.components.includes(`/_api/component/titles/${orphan}`)
      },
      { timeout: 15_000, interval: 200, message: 'the runner to refresh the report' },
    )
  })
})

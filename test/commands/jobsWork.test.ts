import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { expectExit, runPayloadCommand, startPayloadCommand, UNREACHABLE_DATABASE_URL } from '../support/command'
import { descendants, processGone } from '../support/processes'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

/**
 * `npx payload cwa:jobs:work` (docs/orphans.md, "Jobs"): the jobs worker of
 * deployments whose web instances run with CWA_JOBS_RUNNER=0, as a real child
 * process against the test database. The test server runs no jobs runner
 * itself, so a job done here was done by the worker.
 */

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const latestReports = () =>
  server.sql("SELECT count(*)::int AS n FROM _acb_orphaned_resources_reports WHERE kind = 'latest'")
const openJobs = () => server.sql('SELECT count(*)::int AS n FROM payload_jobs WHERE completed_at IS NULL')

describe('cwa:jobs:work', () => {
  it('works a queued job on its schedule, and stops cleanly when a supervisor sends SIGTERM to npx', async () => {
    await server.payload.jobs.queue({ task: 'cwaOrphanScan', input: {} } as never)
    expect(await openJobs()).toEqual([{ n: 1 }])
    expect(await latestReports()).toEqual([{ n: 0 }])

    const worker = startPayloadCommand(
      'cwa:jobs:work',
      [],
      { DATABASE_URL: server.databaseUrl, CWA_JOBS_CRON: '* * * * * *' },
      { launcher: 'npx' },
    )
    let processes: number[] = []
    try {
      await waitFor(() => worker.stdout().includes('Jobs worker running'), {
        timeout: 60_000,
        interval: 100,
        message: () => `the worker's start:\n${worker.stdout()}\n${worker.stderr()}`,
      })
      processes = descendants(worker.child.pid!)
      expect(processes.length).toBeGreaterThan(0) // npx runs the worker under a shell
      // The scan ran in the worker: it stored its report, and the job is done.
      await waitFor(async () => (await latestReports())[0].n === 1 && (await openJobs())[0].n === 0, {
        timeout: 30_000,
        interval: 200,
        message: 'the queued scan, worked',
      })
    } finally {
      worker.child.kill('SIGTERM') // to npx only, as a supervisor does
    }
    // The output closes once the worker itself has exited: no orphan keeps working.
    const run = await worker.exited
    expect(run.stdout).toContain('Jobs worker stopped (')
    expect(run.stderr).not.toMatch(/ERROR|Error:/)
    await waitFor(() => processes.every(processGone), { timeout: 5000, message: 'every process of the worker to exit' })
  }, 120_000)

  it('takes no argument: one is refused with the usage before reaching the database (exit 1)', async () => {
    const run = await runPayloadCommand('cwa:jobs:work', ['--queue', 'default'], {
      DATABASE_URL: UNREACHABLE_DATABASE_URL,
    })
    expectExit(run, 1)
    expect(run.stderr.trim()).toBe(
      'cwa:jobs:work takes no argument (got --queue default).\nUsage: npx payload cwa:jobs:work',
    )
  }, 60_000)
})

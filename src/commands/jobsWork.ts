import { getPayload, type SanitizedConfig } from 'payload'
import { runCommand } from './runCommand'

/**
 * `npx payload cwa:jobs:work`: a jobs worker for larger deployments. Works
 * every queue on the config's jobs.autoRun schedule (CWA_JOBS_CRON, default
 * every 10 s), including the scheduled orphan scan, until SIGINT or SIGTERM.
 * Web instances then run with CWA_JOBS_RUNNER=0.
 */
export async function script(config: SanitizedConfig): Promise<void> {
  await runCommand(config, async (payload) => {
    await getPayload({ config: payload.config, cron: true })
    console.log('Jobs worker running (all queues); stop with Ctrl-C or SIGTERM.')
    await new Promise<void>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve())
    })
    console.log('Jobs worker stopped.')
    return 0
  })
}

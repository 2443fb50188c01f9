import { noArguments, runCommand, type CommandConfig } from './runCommand.js'

export const COMMAND = 'cwa:jobs:work'

/**
 * `npx payload cwa:jobs:work`: a jobs worker for larger deployments. Works
 * every queue on the config's jobs.autoRun schedule (CWA_JOBS_CRON, default
 * every 10 s), including the scheduled orphan scan, until SIGINT or SIGTERM
 * (to it, to its process group, or to the `npx` that started it). Web
 * instances then run with CWA_JOBS_RUNNER=0.
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(config, noArguments(COMMAND), async (payload) => {
    const { getPayload } = await import('payload')
    await getPayload({ config: payload.config, cron: true })
    console.log('Jobs worker running (all queues); stop with Ctrl-C or SIGTERM.')
    const reason = await new Promise<string>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal))
      // `npx` runs this process under a shell: a supervisor's SIGTERM to npx ends npx and the shell,
      // not this process. Left without its parent, the worker stops as if it had been signalled.
      const parent = process.ppid
      setInterval(() => process.ppid !== parent && resolve('its parent process exited'), 500).unref()
    })
    console.log(`Jobs worker stopped (${reason}).`)
    return 0
  })
}

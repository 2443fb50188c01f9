import { noArguments, runCommand, type CommandConfig } from '../../../core/commands/runCommand.js'

export const COMMAND = 'cwa:purge-http-cache'

/**
 * Flushes every cached response (API and rendered HTML), as POST
 * /_/http_cache/purge: only the varnish purger can; with another it flushes
 * nothing and succeeds. Exit 1 with the reason when the cache did not take it.
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(config, noArguments(COMMAND), async (payload) => {
    const [{ getOptions }, { PurgeFailed, purgeHttpCache }] = await Promise.all([
      import('../../../core/registry.js'),
      import('../purger.js'),
    ])
    const { purger } = getOptions(payload.config).httpCache
    let flushed: boolean
    try {
      flushed = await purgeHttpCache(payload)
    } catch (error) {
      if (!(error instanceof PurgeFailed)) throw error
      console.error(`The HTTP cache was not purged: ${error.message}`)
      return 1
    }
    console.log(
      flushed
        ? `Flushed the whole HTTP cache (${purger}).`
        : `The ${purger} purger cannot flush an HTTP cache: nothing was purged.`,
    )
    return 0
  })
}

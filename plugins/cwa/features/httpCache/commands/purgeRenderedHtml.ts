import { noArguments, runCommand, type CommandConfig } from '../../../core/commands/runCommand.js'

export const COMMAND = 'cwa:purge-rendered-html'

/**
 * Purges every cached page of rendered front-end HTML by its shared tag
 * (cached API responses stay), as POST /_/rendered_html/purge. With no purger
 * configured it does nothing and succeeds. Exit 1 with the reason when the
 * cache did not take the purge.
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(config, noArguments(COMMAND), async (payload) => {
    const [{ getOptions }, { PurgeFailed, purgeRenderedHtml }] = await Promise.all([
      import('../../../core/registry.js'),
      import('../purger.js'),
    ])
    const { purger, renderedHtmlTag } = getOptions(payload.config).httpCache
    try {
      await purgeRenderedHtml(payload)
    } catch (error) {
      if (!(error instanceof PurgeFailed)) throw error
      console.error(`The rendered HTML was not purged: ${error.message}`)
      return 1
    }
    console.log(
      purger === 'none'
        ? 'No HTTP cache purger is configured (CACHE_PURGER=none): nothing to purge.'
        : `Purged the rendered HTML (tag ${renderedHtmlTag}) from ${purger}.`,
    )
    return 0
  })
}

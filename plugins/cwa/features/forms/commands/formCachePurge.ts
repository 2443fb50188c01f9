import { noArguments, runCommand, type CommandConfig } from '../../../core/commands/runCommand.js'

export const COMMAND = 'cwa:form-cache-purge'

/**
 * Gives every Form whose form type declaration changed (its content hash)
 * a new modified date, so front ends caching forms fetch them again
 * (plugins/cwa/features/forms/cachePurge.ts). Takes no argument; exit 0.
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(config, noArguments(COMMAND), async (payload) => {
    const { purgeFormCache } = await import('../cachePurge.js')
    const { checked, purged, unknownType } = await purgeFormCache(payload)
    console.log(
      `Forms checked: ${checked}; given a new modified date (form type changed): ${purged}${unknownType > 0 ? `; with a form type no longer declared (left alone): ${unknownType}` : ''}.`,
    )
    return 0
  })
}

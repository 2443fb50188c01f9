import type { SanitizedConfig } from 'payload'
import { purgeFormCache } from 'payload-cwa'
import { runCommand } from './runCommand'

export const COMMAND = 'cwa:form-cache-purge'

/**
 * Gives every Form whose form type declaration changed (its content hash)
 * a new modified date, so front ends caching forms fetch them again
 * (plugins/cwa/features/forms/cachePurge.ts). Takes no argument; exit 0.
 */
export async function script(config: SanitizedConfig): Promise<void> {
  const argv = process.argv.slice(process.argv.findIndex((arg) => arg.toLowerCase() === COMMAND) + 1)
  await runCommand(config, async (payload) => {
    if (argv.length > 0) {
      console.error(`${COMMAND} takes no argument.\nUsage: npx payload ${COMMAND}`)
      return 1
    }
    const { checked, purged, unknownType } = await purgeFormCache(payload)
    console.log(`Forms checked: ${checked}; given a new modified date (form type changed): ${purged}${unknownType > 0 ? `; with a form type no longer declared (left alone): ${unknownType}` : ''}.`)
    return 0
  })
}

/** The HTTP cache feature's operator commands (its declaration's `commands`): their modules load when they run. */
import type { CwaCommand } from '../../../core/commands/command.js'

export const commands: readonly CwaCommand[] = [
  {
    key: 'cwa:purge-rendered-html',
    description: 'purges every cached page of rendered front-end HTML (tag cwa-html)',
    load: () => import('./purgeRenderedHtml.js'),
  },
  {
    key: 'cwa:purge-http-cache',
    description: 'flushes every cached response (API and rendered HTML)',
    load: () => import('./purgeHttpCache.js'),
  },
]

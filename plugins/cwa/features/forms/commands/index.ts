/** The forms feature's operator command (its declaration's `commands`): its module loads when it runs. */
import type { CwaCommand } from '../../../core/commands/command.js'

export const commands: readonly CwaCommand[] = [
  {
    key: 'cwa:form-cache-purge',
    description: 'gives every Form whose form type changed a new modified date, so front ends fetch it again',
    load: () => import('./formCachePurge.js'),
  },
]

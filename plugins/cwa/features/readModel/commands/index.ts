/** The read model's operator command (its declaration's `commands`): its module loads when it runs. */
import type { CwaCommand } from '../../../core/commands/command.js'

export const commands: readonly CwaCommand[] = [
  {
    key: 'cwa:read-model:empty',
    description: 'empties the read model and prints how many answers and bytes it held',
    load: () => import('./empty.js'),
  },
]

/** The orphans feature's operator commands (its declaration's `commands`): their modules load when they run. */
import type { CwaCommand } from '../../../core/commands/command.js'

export const commands: readonly CwaCommand[] = [
  {
    key: 'cwa:scan-orphaned',
    description: 'scans for orphaned resources, stores the report, prints the counts and sends the alert',
    arguments: '[--notify | --no-notify] [-v]',
    load: () => import('./scan.js'),
  },
  {
    key: 'cwa:clean-orphaned',
    description: 'the alias of cwa:scan-orphaned (it deletes nothing)',
    arguments: '[--notify | --no-notify] [-v]',
    load: () => import('./clean.js'),
  },
]

/** The users feature's operator command (its declaration's `commands`): its module loads when it runs. */
import type { CwaCommand } from '../../../core/commands/command.js'

export const commands: readonly CwaCommand[] = [
  {
    key: 'cwa:user:create',
    description: 'creates (or with --overwrite updates) a user, asking for what is missing on a terminal',
    arguments: '[username] [email] [password] [--admin | --super-admin] [--inactive] [--overwrite]',
    load: () => import('./userCreate.js'),
  },
]

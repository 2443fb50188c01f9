/** The session layer's operator command (its declaration's `commands`): its module loads when it runs. */
import type { CwaCommand } from '../../core/commands/command.js'

export const commands: readonly CwaCommand[] = [
  {
    key: 'cwa:refresh-tokens:expire',
    description: "expires every refresh token, or one user's",
    arguments: '[value] [--field username | emailAddress]',
    load: () => import('./refreshTokensExpire.js'),
  },
]

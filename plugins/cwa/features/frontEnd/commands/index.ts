/** The front-end feature's operator command (its declaration's `commands`): its module loads when it runs. */
import type { CwaCommand } from '../../../core/commands/command.js'

export const commands: readonly CwaCommand[] = [
  {
    key: 'cwa:client-types',
    description: "writes the TypeScript types of the app's component and page data types for payload-cwa/client",
    arguments: '[--output | -o <file>]',
    load: () => import('./clientTypes.js'),
  },
]

import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { commandArgs, runCommand, type CommandConfig } from '../../../core/commands/runCommand.js'

export const COMMAND = 'cwa:client-types'
const USAGE = `Usage: npx payload-cwa ${COMMAND} [--output|-o <file>]`

/** The file to write (default `src/cwa-types.ts`), from the arguments after the command's name. */
export function parseClientTypesArgs(argv: string[]): { output: string } {
  let output = 'src/cwa-types.ts'
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if ((arg === '--output' || arg === '-o') && i + 1 < argv.length) output = argv[++i]!
    else if (arg.startsWith('--output=')) output = arg.slice('--output='.length)
    else throw new Error(`Unknown or incomplete argument ${arg}\n${USAGE}`)
  }
  return { output }
}

/**
 * `cwa:client-types`: writes the types of the app's component and page data types, as the JSON-LD API serves
 * them, for payload-cwa/client and payload-cwa/react (clientTypes.ts says what they are).
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(
    config,
    () => parseClientTypesArgs(commandArgs(COMMAND)),
    async (payload, input) => {
      const { clientTypesSource } = await import('../clientTypes.js')
      const file = path.resolve(process.cwd(), input.output)
      mkdirSync(path.dirname(file), { recursive: true })
      writeFileSync(file, clientTypesSource(payload.config))
      const relative = path.relative(process.cwd(), file)
      console.log(`Wrote the component and page data types to ${relative.startsWith('..') ? file : relative}`)
      return 0
    },
  )
}

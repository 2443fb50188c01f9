import { getPayload, type Payload, type SanitizedConfig } from 'payload'
import { migrateDatabase } from '../server/bootstrap'
import { ensureDatabase } from '../server/database'
import { closePayload } from 'payload-cwa'

/**
 * Runs an operator command with the same environment as `npm start`
 * (embedded PostgreSQL when DATABASE_URL is unset, schema migrated), then
 * closes everything and exits with the command's code.
 *
 * `prepare` reads the command line (and asks for what is missing) before
 * anything starts: a mistyped option or a missing value is refused at once,
 * with no database started, migrated or even reached.
 */
export async function runCommand<Input>(
  config: SanitizedConfig,
  prepare: () => Input | Promise<Input>,
  body: (payload: Payload, input: Input) => Promise<number>,
): Promise<never> {
  let input: Input
  try {
    input = await prepare()
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  }
  let code = 1
  const log = { info: () => {}, error: (m: string) => console.error(m) }
  const database = await ensureDatabase(process.env, log)
  let payload: Payload | undefined
  try {
    payload = await getPayload({ config })
    await migrateDatabase(payload)
    code = await body(payload, input)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    code = 1
  } finally {
    if (payload) await closePayload(payload)
    await database.stop()
  }
  process.exit(code)
}

/** The command's own arguments: what follows its name on Payload's command line (Payload matches the name in any letter case). */
export function commandArgs(command: string): string[] {
  const index = process.argv.findIndex((arg) => arg.toLowerCase() === command)
  return index >= 0 ? process.argv.slice(index + 1) : []
}

/** `prepare` of a command that takes no argument: anything after its name is refused with its usage. */
export const noArguments = (command: string) => () => {
  const extra = commandArgs(command)
  if (extra.length > 0) throw new Error(`${command} takes no argument (got ${extra.join(' ')}).\nUsage: npx payload ${command}`)
}

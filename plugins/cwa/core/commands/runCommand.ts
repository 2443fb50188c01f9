import type { Payload, SanitizedConfig } from 'payload'
import type { CommandEnvironment } from './options.js'

/**
 * The app's config as a command receives it: Payload's CLI hands it loaded; the package's runner (cli.ts) hands a
 * promise that loads it when first awaited, so a refused argument answers before any of the app is read.
 */
export type CommandConfig = SanitizedConfig | PromiseLike<SanitizedConfig>

/**
 * Runs an operator command: the app's command environment first (the plugin's `commands.environment`; the
 * reference site starts its embedded PostgreSQL when DATABASE_URL is unset and migrates once Payload is up), then
 * Payload on the app's config and the command's work, then closes everything and exits with the command's code.
 *
 * `prepare` reads the command line (and asks for what is missing) before
 * anything starts: a mistyped option or a missing value is refused at once,
 * with no database started, migrated or even reached. Payload and the
 * library are imported after it, for the same reason (they are most of a
 * command's start).
 */
export async function runCommand<Input>(
  config: CommandConfig,
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
  let environment: CommandEnvironment = {}
  let payload: Payload | undefined
  let close: ((payload: Payload) => Promise<void>) | undefined
  try {
    const [resolved, { getPayload }, { getOptions }, closing] = await Promise.all([
      config,
      import('payload'),
      import('../registry.js'),
      import('../utils/closePayload.js'),
    ])
    close = closing.closePayload
    environment = await getOptions(resolved).commands.environment()
    payload = await getPayload({ config: resolved })
    await environment.ready?.(payload)
    code = await body(payload, input)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    code = 1
  } finally {
    if (payload && close) await close(payload)
    await environment.close?.()
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
  if (extra.length > 0)
    throw new Error(`${command} takes no argument (got ${extra.join(' ')}).\nUsage: npx payload ${command}`)
}

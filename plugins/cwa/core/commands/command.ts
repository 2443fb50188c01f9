import type { CommandConfig } from './runCommand.js'

/** A command's module: what Payload's `bin` and the package's runner call, `script(config)`. */
export interface CommandModule {
  script(config: CommandConfig): Promise<unknown>
}

/**
 * An operator command (`npx payload cwa:<name>`, `npx payload-cwa cwa:<name>`), declared by the feature it
 * belongs to (its declaration's `commands`, from its `commands/index.ts`) or by the core (core/commands/index.ts).
 * The declaration is all that loads with the plugin: the command's module is imported by `load`, when it runs.
 */
export interface CwaCommand {
  /** Its name on the command line, `cwa:<name>` (Payload matches it in any letter case). */
  key: `cwa:${string}`
  /** What it does, in one line. */
  description: string
  /** Its arguments and options as its usage line shows them (none when it takes none). */
  arguments?: string
  /** Its module, imported when the command runs (a command's code never loads with the plugin). */
  load(): Promise<CommandModule>
}

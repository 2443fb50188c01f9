import type { Payload } from 'payload'
import type { OptionKeys } from '../optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions } from '../options.js'

/**
 * Options of the operator commands (`npx payload cwa:<name>`), which cwaPlugin() registers in the app's `bin`.
 * An app whose database is simply reachable needs none: a command starts Payload on the app's config and runs.
 * An app that starts its database itself, or migrates at start, says so here (the reference site starts an
 * embedded PostgreSQL and applies its migrations).
 */
export interface CommandEnvironment {
  /** Called once Payload has started, before the command's work (e.g. apply the app's migrations). */
  ready?(payload: Payload): Promise<void>
  /** Called when the command ends, whatever its outcome (e.g. stop the database started for it). */
  close?(): Promise<void>
}

export interface CommandsOptions {
  /** Prepares what a command needs before Payload starts (a database to start, migrations to run once started). */
  environment?: () => Promise<CommandEnvironment>
  /**
   * Writes the migration of a type that `cwa:make:* --migration` just generated, in the app's folder `cwd`;
   * returns the exit code. Default: `npx payload migrate:create <name>` there.
   */
  createMigration?: (name: string, cwd: string) => number
}

export interface ResolvedCommandsOptions {
  environment: () => Promise<CommandEnvironment>
  createMigration: ((name: string, cwd: string) => number) | null
}

declare module '../options.js' {
  interface CwaPluginOptions {
    /** How the operator commands start ([operations](docs/operations.md#operator-commands)). Default: Payload on the app's config, nothing else. */
    commands?: CommandsOptions
  }
  interface ResolvedCwaOptions {
    commands: ResolvedCommandsOptions
  }
}

export const commandsOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'commands'>> = {
  commands: { environment: true, createMigration: true },
}

export function resolveCommandsOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, 'commands'> {
  return {
    commands: {
      environment: options.commands?.environment ?? (async () => ({})),
      createMigration: options.commands?.createMigration ?? null,
    },
  }
}

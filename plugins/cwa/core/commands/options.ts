import type { Payload } from 'payload'
import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../defineOptions.js'

/**
 * Options of the operator commands (`npx payload cwa:<name>`), which cwaPlugin() registers in the app's `bin`.
 * An app whose database is simply reachable needs none: a command starts Payload on the app's config and runs.
 * An app that starts its database itself, or migrates at start, says so here (the reference site starts an
 * embedded PostgreSQL and applies its migrations). Declared once (core/defineOptions.ts).
 */
export interface CommandEnvironment {
  /** Called once Payload has started, before the command's work (e.g. apply the app's migrations). */
  ready?(payload: Payload): Promise<void>
  /** Called when the command ends, whatever its outcome (e.g. stop the database started for it). */
  close?(): Promise<void>
}

type PrepareEnvironment = () => Promise<CommandEnvironment>
type CreateMigration = (name: string, cwd: string) => number

export const commandsOptions = defineOptions({
  commands: group('How the operator commands start ([operations](operations.md#operator-commands)).', {
    environment: option<PrepareEnvironment>({
      type: '() => Promise<CommandEnvironment>',
      default: async () => ({}),
      defaultText: "nothing: Payload starts on the app's config",
      doc:
        'Prepares what a command needs before Payload starts: a database to start, migrations to run once ' +
        'started (`ready(payload)`), what to stop when the command ends (`close()`).',
    }),
    createMigration: option<CreateMigration, CreateMigration | null>({
      type: '(name: string, cwd: string) => number',
      default: null,
      defaultText: '`npx payload migrate:create <name>` in the app',
      doc:
        'Writes the migration of a type that `cwa:make:* --migration` just generated, in the app folder `cwd`; ' +
        'returns the exit code.',
    }),
  }),
})

/** What an app gives as `commands` (the reference site's src/config/commands.ts). */
export type CommandsOptions = NonNullable<OptionsInput<typeof commandsOptions>['commands']>

declare module '../options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof commandsOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof commandsOptions> {}
}

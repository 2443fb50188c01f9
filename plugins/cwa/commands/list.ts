import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { CwaCommand } from '../core/commands/command.js'
import { commands as coreCommands } from '../core/commands/index.js'
import type { CwaFeature } from '../hydra/feature.js'

/** A Payload `bin` entry: `npx payload <key>` imports `scriptPath` and calls its `script(config)`. */
export interface CommandEntry {
  key: string
  scriptPath: string
}

/**
 * The commands of the core and of the given declarations, by name: the assembly only, each command is its
 * feature's. Two declarations of one name stop the config, naming it.
 */
export function assembleCommands(declared: ReadonlyArray<readonly CwaCommand[]>): CwaCommand[] {
  const commands = [coreCommands, ...declared].flat()
  const keys = new Set<string>()
  for (const { key } of commands) {
    if (keys.has(key)) throw new Error(`cwa commands: two commands are named ${key}`)
    keys.add(key)
  }
  return commands.sort((a, b) => (a.key < b.key ? -1 : 1))
}

/** The commands of these features (the built-in ones and an app's own, as cwaPlugin assembled them) and the core's. */
export const commandsOf = (features: readonly CwaFeature[]): CwaCommand[] =>
  assembleCommands(features.map((feature) => feature.commands ?? []))

/**
 * This module's folder. Not `new URL('…', import.meta.url)`: a bundler (Next.js, building an app's admin with the
 * config) takes that for an asset of its own and hands back its own URL, which node:fs refuses.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url))

/** bin.ts, compiled: the one module Payload's CLI imports for every command, which runs the one its key names. */
const BIN = path.join(HERE, 'bin.js')

/**
 * The operator commands, run as `npx payload cwa:<name>` in any app that adds cwaPlugin(): the plugin puts them in
 * the config's `bin`, each pointing at the package's compiled bin.js beside this module (no TypeScript to
 * transpile), which loads the command's own module.
 */
export function cwaCommands(features: readonly CwaFeature[]): CommandEntry[] {
  return commandsOf(features).map(({ key }) => ({ key, scriptPath: BIN }))
}

/**
 * The built-in commands without the features: each built-in feature's `commands/index.js` (the declarations
 * alone, which import nothing) and the core's. The package's runner (cli.ts) reads a command line with these
 * before anything of the library, Payload or the app is loaded; the features, which load both, would take seconds.
 */
export async function builtInCommands(): Promise<CwaCommand[]> {
  const root = path.join(HERE, '..')
  const folders = [
    'session',
    ...readdirSync(path.join(root, 'features'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join('features', entry.name)),
  ]
  const files = folders
    .map((folder) => path.join(root, folder, 'commands', 'index.js'))
    .filter((file) => existsSync(file))
  const declared = await Promise.all(
    files.map(
      async (file) => ((await import(pathToFileURL(file).href)) as { commands: readonly CwaCommand[] }).commands,
    ),
  )
  return assembleCommands(declared)
}

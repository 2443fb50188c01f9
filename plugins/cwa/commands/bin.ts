import type { SanitizedConfig } from 'payload'
import type { CwaFeature } from '../hydra/feature.js'
import { commandsOf } from './list.js'

/**
 * What Payload's CLI runs for every `cwa:<name>` of the config's `bin` (list.ts): the command its name on the
 * command line names, among those of the features cwaPlugin assembled on this config, its module loaded now.
 */
export async function script(config: SanitizedConfig): Promise<unknown> {
  const features = (config.custom?.cwa as { features?: readonly CwaFeature[] } | undefined)?.features ?? []
  const commands = commandsOf(features)
  // Payload matches the name in any letter case (its first argument, lowercased).
  const named = process.argv.map((arg) => arg.toLowerCase())
  const command = commands.find(({ key }) => named.includes(key))
  if (!command) throw new Error(`No cwa command in ${process.argv.slice(2).join(' ')}`)
  return (await command.load()).script(config)
}

import { commandArgs, runCommand, type CommandConfig } from '../../../core/commands/runCommand.js'

export const COMMAND = 'cwa:scan-orphaned'
const usage = (command: string) => `Usage: npx payload ${command} [--notify | --no-notify] [-v]`

export interface ScanOrphanedInput {
  notify: boolean
  verbose: boolean
}

/** Parses the command line of cwa:scan-orphaned / cwa:clean-orphaned (arguments after the command name). */
export function parseScanOrphanedArgs(argv: string[], command = COMMAND): ScanOrphanedInput {
  let notify = true
  let verbose = false
  for (const arg of argv) {
    if (arg === '--notify') notify = true
    else if (arg === '--no-notify') notify = false
    else if (arg === '-v' || arg === '--verbose' || arg === '-vv' || arg === '-vvv') verbose = true
    else throw new Error(`Unknown argument ${arg}\n${usage(command)}`)
  }
  return { notify, verbose }
}

/**
 * `cwa:scan-orphaned` (contract: operator console): always scans in the
 * command, stores the report, prints the counts (with -v the IRIs) and the
 * alert's output line, and exits 0 whatever the e-mail did. `--no-notify`
 * sends nothing and leaves the last alert where it is.
 */
export async function runScanOrphaned(config: CommandConfig, command: string): Promise<never> {
  return runCommand(
    config,
    () => parseScanOrphanedArgs(commandArgs(command), command),
    async (payload, input) => {
      const { scanAndNotify } = await import('../alert.js')
      const result = await scanAndNotify(payload, { notify: input.notify })
      const { report } = result
      console.log(`Orphaned component groups: ${report.componentGroups.length}`)
      if (input.verbose) for (const iri of report.componentGroups) console.log(`  ${iri}`)
      console.log(`Orphaned component positions: ${report.componentPositions.length}`)
      if (input.verbose) for (const iri of report.componentPositions) console.log(`  ${iri}`)
      console.log(`Orphaned components: ${report.components.length}`)
      if (input.verbose) for (const iri of report.components) console.log(`  ${iri}`)
      console.log(result.line)
      return 0
    },
  )
}

export const script = (config: CommandConfig) => runScanOrphaned(config, COMMAND)

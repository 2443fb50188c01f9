import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { functionName } from './fixtures/functionName.js'
import { commandArgs, runCommand, type CommandConfig } from './runCommand.js'

export const COMMAND = 'cwa:generate-fixtures'
const USAGE = `Usage: npx payload ${COMMAND} [--output|-o <file>] [--namespace <functionName>]`

export interface GenerateFixturesInput {
  output: string
  name: string
}

/** The folder next to the module for the files too large to inline: `<module file>.files`. */
export const filesDirectoryOf = (moduleFile: string): string => `${moduleFile}.files`

/** Parses the command line (arguments after the command name). */
export function parseGenerateFixturesArgs(argv: string[]): GenerateFixturesInput {
  let output = 'src/seed/generated.ts'
  let namespace: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value\n${USAGE}`)
      return argv[++i]!
    }
    if (arg === '--output' || arg === '-o') output = value()
    else if (arg.startsWith('--output=')) output = arg.slice('--output='.length)
    else if (arg === '--namespace') namespace = value()
    else if (arg.startsWith('--namespace=')) namespace = arg.slice('--namespace='.length)
    else throw new Error(`Unknown argument ${arg}\n${USAGE}`)
  }
  return { output, name: functionName(namespace) }
}

/**
 * `cwa:generate-fixtures`: writes a TypeScript seed module recreating the
 * current database's structure and uploaded files (src/commands/fixtures/generate.ts),
 * the files too large to inline in `<module>.files/`, and prints what it could
 * not reproduce. `--namespace` names the exported function (a
 * PHP namespace such as App\DataFixtures gives its last segment).
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(
    config,
    () => parseGenerateFixturesArgs(commandArgs(COMMAND)),
    async (payload, input) => {
      const { generateFixtures } = await import('./fixtures/generate.js')
      const file = path.resolve(process.cwd(), input.output)
      const filesDirectory = filesDirectoryOf(file)
      const generated = await generateFixtures(payload, {
        name: input.name,
        filesDirectory: path.basename(filesDirectory),
      })
      mkdirSync(path.dirname(file), { recursive: true })
      writeFileSync(file, generated.source)
      // The files of an earlier run would be stale: the folder holds exactly this module's files.
      rmSync(filesDirectory, { recursive: true, force: true })
      if (generated.files.length > 0) {
        mkdirSync(filesDirectory, { recursive: true })
        for (const { name, bytes } of generated.files)
          writeFileSync(path.join(filesDirectory, name), new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length))
      }
      const total = Object.values(generated.counts).reduce((a, b) => a + b, 0)
      console.log(`Wrote ${file}: ${total} record(s), function ${input.name}(payload, req?)`)
      if (generated.files.length > 0)
        console.log(`Wrote ${generated.files.length} file(s) the module reads into ${filesDirectory}`)
      for (const [slug, count] of Object.entries(generated.counts)) if (count > 0) console.log(`  ${slug}: ${count}`)
      if (generated.notReproduced.length === 0) console.log('Everything was reproduced.')
      else {
        console.log('Not reproduced:')
        for (const line of generated.notReproduced) console.log(`  ${line}`)
      }
      return 0
    },
  )
}

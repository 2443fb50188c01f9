import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { SanitizedConfig } from 'payload'
import type { CommandConfig } from './runCommand.js'
import { getOptions, getRegistry } from '../registry.js'
import { collectionSegment } from '../utils/naming.js'
import { parseTypeIri, renameMigration, shortNameOf } from './make/rename.js'
import { componentModule, generatedIndex, isShortName, pageDataModule, parseIndex } from './make/typeFile.js'

/**
 * The developer generators (contract: make:api-component, make:page-data,
 * make:cwa-scaffold, make:rename-component), run as `npx payload cwa:make:<name>`.
 * They need no database: they read the config and write files.
 *
 *   cwa:make:api-component <ShortName> [--publishable] [--dir collections/generated] [--migration]
 *   cwa:make:page-data <ShortName> [--component <slug>] [--dir ...] [--migration]
 *   cwa:make:cwa-scaffold <Name> [--dir ...] [--migration]        a component <Name>Block and page data <Name>Data holding it
 *   cwa:make:rename-component --old-iri /component/x --new-iri /component/y [--new-short-name Y] [--namespace name] [--dir migrations] [--timestamp ...]
 *
 * A type module goes in --dir (default collections/generated, whose index
 * payload.config.ts includes); --migration then creates its migration (`commands.createMigration`, by default
 * `npx payload migrate:create`)
 * for it in a new process (the new type's tables). --namespace (the PHP
 * option) names the rename migration's file.
 */

// The app's folder: where `npx payload` runs (Payload finds the app's config from there too).
const root = process.cwd()
const COMMANDS = [
  'cwa:make:api-component',
  'cwa:make:page-data',
  'cwa:make:cwa-scaffold',
  'cwa:make:rename-component',
] as const
export type Command = (typeof COMMANDS)[number]

interface Parsed {
  positional: string[]
  flags: Map<string, string | true>
}

/** What each generator takes: its usage line, its options with a value, its switches, how many positional arguments. */
const SYNTAX: Record<Command, { usage: string; valued: string[]; switches: string[]; positional: number }> = {
  'cwa:make:api-component': {
    usage: '<Name> [--publishable] [--migration] [--dir <folder>]',
    valued: ['dir'],
    switches: ['publishable', 'migration'],
    positional: 1,
  },
  'cwa:make:page-data': {
    usage: '<Name> [--component <slug>] [--migration] [--dir <folder>]',
    valued: ['dir', 'component'],
    switches: ['migration'],
    positional: 1,
  },
  'cwa:make:cwa-scaffold': {
    usage: '<Name> [--migration] [--dir <folder>]',
    valued: ['dir'],
    switches: ['migration'],
    positional: 1,
  },
  'cwa:make:rename-component': {
    usage:
      '--old-iri <iri> --new-iri <iri> [--new-short-name <Name>] [--namespace <name>] [--timestamp <yyyymmdd_hhmmss>] [--dir <folder>]',
    valued: ['old-iri', 'new-iri', 'new-short-name', 'namespace', 'dir', 'timestamp'],
    switches: [],
    positional: 0,
  },
}

/** The generator's command line; an unknown option (a typo such as --publishabel) or a stray argument is refused with the usage. */
export function parseMakeArgs(command: Command, argv: string[]): Parsed {
  const { usage, valued, switches, positional: most } = SYNTAX[command]
  const refuse = (reason: string) => new Error(`${reason}\nUsage: npx payload ${command} ${usage}`)
  const positional: string[] = []
  const flags = new Map<string, string | true>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) {
      positional.push(arg)
      continue
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    if (valued.includes(name)) {
      const value = inline ?? argv[++i]
      if (value === undefined) throw refuse(`--${name} needs a value`)
      flags.set(name, value)
    } else if (switches.includes(name) && inline === undefined) flags.set(name, true)
    else throw refuse(`Unknown option ${arg}`)
  }
  if (positional.length > most) throw refuse(`Unexpected argument ${positional[most]}`)
  return { positional, flags }
}

function writeTypes(
  dir: string,
  modules: Array<{ name: string; kind: 'component' | 'pageData'; source: string }>,
): string[] {
  mkdirSync(dir, { recursive: true })
  const indexFile = path.join(dir, 'index.ts')
  const entries = existsSync(indexFile) ? parseIndex(readFileSync(indexFile, 'utf8')) : []
  const written: string[] = []
  for (const module of modules) {
    const file = path.join(dir, `${module.name}.ts`)
    if (existsSync(file)) throw new Error(`${path.relative(root, file)} exists already: nothing written`)
  }
  for (const module of modules) {
    const file = path.join(dir, `${module.name}.ts`)
    writeFileSync(file, module.source)
    written.push(file)
    if (!entries.some((e) => e.name === module.name))
      entries.push({ name: module.name, file: module.name, kind: module.kind })
  }
  writeFileSync(indexFile, generatedIndex(entries))
  written.push(indexFile)
  return written
}

/** The migration of the generated type's tables: the app's own way (`commands.createMigration`), else Payload's. */
function migrate(config: SanitizedConfig, name: string): void {
  const own = getOptions(config).commands.createMigration
  const status = own
    ? own(name, root)
    : (spawnSync('npx', ['payload', 'migrate:create', name], { cwd: root, stdio: 'inherit' }).status ?? 1)
  if (status !== 0) throw new Error(`creating the migration ${name} failed (exit ${status})`)
}

export async function runMake(config: SanitizedConfig, command: Command, argv: string[]): Promise<number> {
  const registry = getRegistry(config)
  const options = getOptions(config)
  const dirOf = (parsed: Parsed, fallback: string) => path.resolve(root, String(parsed.flags.get('dir') ?? fallback))
  const report = (files: string[]) => files.forEach((file) => console.log(`wrote ${path.relative(root, file)}`))

  if (command === 'cwa:make:rename-component') {
    const parsed = parseMakeArgs(command, argv)
    const oldIri = parsed.flags.get('old-iri')
    const newIri = parsed.flags.get('new-iri')
    if (typeof oldIri !== 'string' || typeof newIri !== 'string')
      throw new Error('--old-iri and --new-iri are required (collection IRIs starting with /, e.g. /component/titles)')
    const from = parseTypeIri(oldIri, options.apiPrefix)
    const to = parseTypeIri(newIri, options.apiPrefix)
    if (!from)
      throw new Error(
        `--old-iri "${oldIri}" is not a component or page data collection IRI starting with / (e.g. /component/titles)`,
      )
    if (!to)
      throw new Error(
        `--new-iri "${newIri}" is not a component or page data collection IRI starting with / (e.g. /component/headings)`,
      )
    if (from.kind !== to.kind)
      throw new Error('--old-iri and --new-iri must be of the same kind (both /component/... or both /page_data/...)')
    if (from.segment === to.segment) throw new Error('--old-iri and --new-iri name the same type')
    const existing = registry.byPath(from.path)
    const newShortName =
      typeof parsed.flags.get('new-short-name') === 'string'
        ? String(parsed.flags.get('new-short-name'))
        : shortNameOf(to.segment)
    const plan = {
      kind: from.kind,
      oldSegment: from.segment,
      newSegment: to.segment,
      oldShortName: existing?.meta.shortName ?? shortNameOf(from.segment),
      newShortName,
      tablePrefix: options.tablePrefix,
      apiPrefix: options.apiPrefix,
    }
    const timestamp = String(
      parsed.flags.get('timestamp') ?? new Date().toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15),
    )
    if (!/^\d{8}_\d{6}$/.test(timestamp))
      throw new Error(`--timestamp must look like 20261123_171000, not "${timestamp}"`)
    const name = String(parsed.flags.get('namespace') ?? `rename_${from.segment}_to_${to.segment}`)
      .split(/[\\/]/)
      .pop()!
      .replace(/\W/g, '_')
    const dir = dirOf(parsed, 'migrations')
    mkdirSync(dir, { recursive: true })
    const file = path.join(dir, `${timestamp}_${name}.ts`)
    writeFileSync(file, renameMigration(plan))
    report([file])
    if (!existing)
      console.log(
        `Note: no type is served at ${from.path} in this config; short name ${plan.oldShortName} was derived from the IRI.`,
      )
    console.log(
      `Next: declare the type as ${newShortName} (it is served at /${from.kind === 'component' ? 'component' : 'page_data'}/${to.segment})${dir === path.join(root, 'migrations') ? ' and list the migration in your migrations index (payload migrate:create rewrites it)' : ''}.`,
    )
    return 0
  }

  const parsed = parseMakeArgs(command, argv)
  const [name] = parsed.positional
  if (!name || !isShortName(name)) throw new Error(`${command} needs a short name in PascalCase (e.g. Banner)`)
  const taken = (shortName: string) => {
    if (registry.byShortName(shortName)) throw new Error(`A type named ${shortName} exists already`)
  }
  const dir = dirOf(parsed, 'collections/generated')
  let modules: Array<{ name: string; kind: 'component' | 'pageData'; source: string }>
  if (command === 'cwa:make:api-component') {
    taken(name)
    modules = [
      {
        name,
        kind: 'component',
        source: componentModule(name, { publishable: parsed.flags.get('publishable') === true }),
      },
    ]
  } else if (command === 'cwa:make:page-data') {
    taken(name)
    const component = parsed.flags.get('component')
    if (
      component !== undefined &&
      (typeof component !== 'string' || registry.bySlug(component)?.meta.kind !== 'component')
    )
      throw new Error(`--component "${String(component)}" is not a component collection slug`)
    modules = [{ name, kind: 'pageData', source: pageDataModule(name, { component: component as string | undefined }) }]
  } else {
    const block = `${name}Block`
    const data = `${name}Data`
    taken(block)
    taken(data)
    modules = [
      { name: block, kind: 'component', source: componentModule(block, { publishable: true }) },
      { name: data, kind: 'pageData', source: pageDataModule(data, { component: collectionSegment(block) }) },
    ]
  }
  report(writeTypes(dir, modules))
  if (parsed.flags.get('migration') === true) migrate(config, `add_${name.toLowerCase()}`)
  else
    console.log(
      `Next: create the migration of the new tables (npx payload migrate:create add_${name.toLowerCase()}, or your app's own command), or run this command with --migration.`,
    )
  return 0
}

/** The command's own arguments: what follows its name on Payload's command line. */
function commandOf(): { command: Command; argv: string[] } {
  const index = process.argv.findIndex((arg) => (COMMANDS as readonly string[]).includes(arg))
  if (index < 0) throw new Error(`Run as one of: ${COMMANDS.map((c) => `npx payload ${c}`).join(', ')}`)
  return { command: process.argv[index] as Command, argv: process.argv.slice(index + 1) }
}

export async function script(config: CommandConfig): Promise<void> {
  let code = 0
  try {
    const { command, argv } = commandOf()
    code = await runMake(await config, command, argv)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    code = 1
  }
  process.exit(code)
}

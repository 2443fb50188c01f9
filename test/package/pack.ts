/**
 * The packed payload-cwa tarball, as `npm pack` in plugins/cwa makes it (its prepack runs the clean build), made
 * from a copy of the package's sources: a clean build in plugins/cwa itself would empty the dist/ that the rest of
 * the test run (and a running site) imports. The copy sits under the project, so its build finds the project's
 * node_modules (TypeScript, esbuild, the peers' types) as plugins/cwa does. One tarball per state of the sources:
 * the test files that need it share it (a lock lets one pack while the others wait).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { waitFor } from '../support/wait'

const root = process.cwd()
export const packageDir = path.join(root, 'plugins', 'cwa')
const workDir = path.join(root, '.data', 'package-test')

/** What the build reads: everything in plugins/cwa but its outputs. */
const SKIPPED = new Set(['dist', 'node_modules', '.build.lock'])

function sourceFiles(dir = packageDir, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) sourceFiles(file, found)
    else found.push(file)
  }
  return found.sort()
}

function sourcesHash(): string {
  const hash = createHash('sha1')
  for (const file of sourceFiles())
    hash.update(path.relative(packageDir, file)).update('\0').update(readFileSync(file, 'latin1')).update('\0')
  return hash.digest('hex').slice(0, 12)
}

/** The environment of a child process that must not think it runs inside this project's npm script (npm test). */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(process.env)) {
    // npm_config_* (local prefix, workspace...) would point npm at this project; jest's NODE_OPTIONS at its VM modules.
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE_OPTIONS') continue
    env[key] = value
  }
  return { ...env, NO_UPDATE_NOTIFIER: '1', NEXT_TELEMETRY_DISABLED: '1', ...extra } as unknown as NodeJS.ProcessEnv
}

export interface Run {
  code: number | null
  /** stdout and stderr, interleaved. */
  output: string
  stdout: string
  seconds: number
}

/** Runs a command to its end; its output (stdout and stderr) for the failure message. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    let stdout = ''
    child.stdout!.on('data', (d) => {
      output += d
      stdout += d
    })
    child.stderr!.on('data', (d) => (output += d))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output, stdout, seconds: (Date.now() - started) / 1000 }))
  })
}

/** Fails with the command's output unless it exited with 0. */
export async function runOk(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Run> {
  const result = await run(command, args, options)
  if (result.code !== 0)
    throw new Error(
      `${command} ${args.join(' ')} (in ${options.cwd}) exited with ${result.code}:\n${result.output.slice(-6000)}`,
    )
  return result
}

export interface Packed {
  tarball: string
  /** Seconds spent packing (0 when this run's tarball was already there). */
  seconds: number
}

/** Whether plugins/cwa/dist's declarations were built after every source changed (its types stamp is newer). */
function typesCurrent(): boolean {
  const stamp = path.join(packageDir, 'dist', '.types-built')
  if (!existsSync(stamp)) return false
  const built = statSync(stamp).mtimeMs
  return sourceFiles().every((file) => statSync(file).mtimeMs <= built)
}

/** `npm pack` of the package as its sources are now. */
export async function packPlugin(): Promise<Packed> {
  mkdirSync(workDir, { recursive: true })
  const hash = sourcesHash()
  const version = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version as string
  const tarball = path.join(workDir, `payload-cwa-${version}-${hash}.tgz`)
  const lock = path.join(workDir, `pack-${hash}.lock`)
  await waitFor(
    () => {
      try {
        mkdirSync(lock)
        return true
      } catch {
        // A lock left by a killed run is stale after 10 minutes (a pack takes under one).
        if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true })
        return false
      }
    },
    { timeout: 900_000, interval: 500, message: `the pack lock ${lock}` },
  )
  try {
    if (existsSync(tarball)) return { tarball, seconds: 0 }
    const copy = path.join(workDir, `src-${hash}-${process.pid}`)
    const out = path.join(workDir, `out-${hash}-${process.pid}`)
    rmSync(copy, { recursive: true, force: true })
    rmSync(out, { recursive: true, force: true })
    mkdirSync(out)
    cpSync(packageDir, copy, { recursive: true, filter: (source) => !SKIPPED.has(path.basename(source)) })
    try {
      // The declarations of these very sources, when plugins/cwa/dist holds current ones (CI's type check built
      // them): copied, not built by a second tsc run (scripts/build.mjs, CWA_BUILD_TYPES_FROM).
      const packed = await runOk('npm', ['pack', '--pack-destination', out, '--json'], {
        cwd: copy,
        env: cleanEnv(typesCurrent() ? { CWA_BUILD_TYPES_FROM: path.join(packageDir, 'dist') } : {}),
      })
      const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>
      renameSync(path.join(out, filename), tarball)
      return { tarball, seconds: packed.seconds }
    } finally {
      rmSync(copy, { recursive: true, force: true })
      rmSync(out, { recursive: true, force: true })
    }
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** The source files the package's build compiles (to tell a stale dist/ file from a current one). */
export function compiledSources(): string[] {
  return sourceFiles()
    .map((file) => path.relative(packageDir, file))
    .filter((file) => /\.(ts|tsx)$/.test(file) && !file.endsWith('.d.ts'))
}

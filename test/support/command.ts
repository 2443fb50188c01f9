/**
 * Operator console commands as an operator runs them: `npx payload-cwa <command>`
 * (the package's own runner, the same command modules without Payload's
 * TypeScript loader) or `npx payload <command>` (Payload's CLI, `via: 'payload'`)
 * in a child process, in the project folder, with the test run's environment
 * plus what the test sets (DATABASE_URL above all).
 *
 * By default the CLI's file is started with Node as npx ends up starting it (the package's runner with Node's
 * `production` condition, which it would otherwise re-run itself with): npm's own start-up and the runner's second
 * process cost about a second of CPU per command, a minute over the suite. The tests of the launchers themselves
 * (`npx`, the re-run, the handing on to Payload's CLI) say `launcher: 'npx'`.
 *
 *   const run = await runPayloadCommand('cwa:refresh-tokens:expire', ['alice'], { DATABASE_URL: server.databaseUrl })
 *   expectExit(run, 0)
 */
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'

export interface CommandRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * A DATABASE_URL nothing answers on: a command refusing its arguments with
 * this one proves it refused them before reaching for a database.
 */
export const UNREACHABLE_DATABASE_URL = 'postgres://postgres@127.0.0.1:9/nothing'

/** A command still running: its output so far, and its end. */
export interface RunningCommand {
  child: ChildProcess
  stdout(): string
  stderr(): string
  exited: Promise<CommandRun>
}

/** Which CLI runs the command: the package's runner (default: what most tests need, a third of the CPU) or Payload's. */
export interface CommandVia {
  via?: 'payload-cwa' | 'payload'
  /** `npx` as an operator types it, or (default) Node on the CLI's file, as npx ends up running it. */
  launcher?: 'node' | 'npx'
}

/** The command line npx would end with: the bin npm linked, under Node, with the runner's condition. */
function launch(via: 'payload-cwa' | 'payload', launcher: 'node' | 'npx', args: string[]): [string, string[]] {
  if (launcher === 'npx') return ['npx', [via, ...args]]
  const bin = path.join(process.cwd(), 'node_modules', '.bin', via)
  return [process.execPath, [...(via === 'payload-cwa' ? ['--conditions=production'] : []), bin, ...args]]
}

/** Starts the command with no terminal attached (stdin is /dev/null); stderr without npm's own warnings. */
export function startPayloadCommand(
  command: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
  { via = 'payload-cwa', launcher = 'node' }: CommandVia = {},
): RunningCommand {
  const [file, argv] = launch(via, launcher, [command, ...args])
  const child = spawn(file, argv, {
    env: { ...process.env, SEED_DEMO: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d) => (stdout += d))
  child.stderr!.on('data', (d) => (stderr += d))
  const exited = new Promise<CommandRun>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr: withoutNpmNoise(stderr) }))
  })
  return { child, stdout: () => stdout, stderr: () => withoutNpmNoise(stderr), exited }
}

/** Runs the command to its end. */
export function runPayloadCommand(
  command: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
  via: CommandVia = {},
): Promise<CommandRun> {
  return startPayloadCommand(command, args, env, via).exited
}

/** npm's own lines (configuration warnings, the update notice) are not the command's output. */
function withoutNpmNoise(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !/^npm (warn|notice)\b/.test(line))
    .join('\n')
}

/** Checks the exit code, showing the command's output when it differs. */
export function expectExit(run: CommandRun, code: number): void {
  if (run.code !== code)
    throw new Error(`expected exit code ${code}, got ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`)
}

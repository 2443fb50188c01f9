#!/usr/bin/env node
// `npx payload-cwa <command>`: the package's command runner (commands/cli.ts, compiled to dist/). This file is
// plain JavaScript kept outside dist/ so that it exists when npm links the bin: in an npm workspace the link is
// made at install, before the package's build writes dist/ (npm skips a bin whose file is missing).
//
// The runner needs Node's `production` condition: under the default `node` condition Lexical's packages (Payload's
// templates load them) resolve to wrappers that pick their build with a top-level `await import()`, and Node 20's
// loader can lose the last of those jobs, ending the process with exit 13 and no output (about 3 runs in 4). Without
// the condition in this process's flags or NODE_OPTIONS, the runner runs itself again with it. A command that is not
// one of the plugin's (`cwa:<name>`) is Payload's own (`migrate:create`, `migrate`, `generate:importmap`...): it is
// handed to the app's Payload CLI under the same condition, so `npx payload-cwa migrate` needs no flag on Node 20.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const CONDITION = '--conditions=production'

/** Runs `args` in a child Node process with the condition; this process ends as the child does. */
function runWithCondition(args) {
  const child = spawn(process.execPath, [CONDITION, ...process.execArgv, ...args], { stdio: 'inherit' })
  // A signal to this process (Ctrl-C, a stop) reaches the command, which ends as it would have alone.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  // npx stops its shell, not this process: when the shell is gone (this process orphaned), the command is stopped as
  // a SIGTERM would (the commands watch their own parent for that, and that parent is this process).
  const parent = process.ppid
  const watch = setInterval(() => {
    if (process.ppid !== parent) child.kill('SIGTERM')
  }, 500)
  watch.unref()
  child.once('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
}

/** The app's Payload CLI (node_modules/payload/bin.js), looked up from the working directory as npx does. */
function payloadBin() {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const bin = path.join(dir, 'node_modules', 'payload', 'bin.js')
    if (existsSync(bin)) return bin
    if (path.dirname(dir) === dir) return null
  }
}

const command = process.argv[2] ?? ''
const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].join(' ')
if (command && !command.startsWith('cwa:') && !command.startsWith('-')) {
  const bin = payloadBin()
  if (!bin) {
    process.stderr.write(
      `payload-cwa: ${command} is Payload's command, and no node_modules/payload/bin.js was found from ${process.cwd()}\n`,
    )
    process.exit(1)
  }
  runWithCondition([bin, ...process.argv.slice(2)])
} else if (/(?:^|\s)(?:--conditions|-C)[=\s]production(?:\s|$)/.test(flags)) {
  await import('../dist/commands/cli.js')
} else {
  runWithCondition([fileURLToPath(import.meta.url), ...process.argv.slice(2)])
}

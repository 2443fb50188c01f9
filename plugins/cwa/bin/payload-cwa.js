#!/usr/bin/env node
// `npx payload-cwa <command>`: the package's command runner (commands/cli.ts, compiled to dist/). This file is
// plain JavaScript kept outside dist/ so that it exists when npm links the bin: in an npm workspace the link is
// made at install, before the package's build writes dist/ (npm skips a bin whose file is missing).
//
// The runner needs Node's `production` condition: under the default `node` condition Lexical's packages (Payload's
// templates load them) resolve to wrappers that pick their build with a top-level `await import()`, and Node 20's
// loader can lose the last of those jobs, ending the process with exit 13 and no output (about 3 runs in 4). Without
// the condition in this process's flags or NODE_OPTIONS, the runner runs itself again with it.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].join(' ')
if (/(?:^|\s)(?:--conditions|-C)[=\s]production(?:\s|$)/.test(flags)) {
  await import('../dist/commands/cli.js')
} else {
  const child = spawn(
    process.execPath,
    ['--conditions=production', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  )
  // A signal to this process (Ctrl-C, a stop) reaches the command, which ends as it would have alone.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.once('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
}

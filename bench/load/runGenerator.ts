import { fork } from 'node:child_process'
import path from 'node:path'
import type { LoadOutcome, LoadPlan } from './types'

export /** Runs the generator in a child process (through scripts/start.mjs, like this script) and returns what it saw. */
function runGenerator(plan: LoadPlan): Promise<LoadOutcome> {
  // This script runs through scripts/start.mjs (npm run load): so does the generator.
  const starter = process.argv[1]?.endsWith(path.join('scripts', 'start.mjs'))
    ? process.argv[1]
    : path.resolve('scripts', 'start.mjs')
  const root = path.resolve(path.dirname(starter), '..')
  const child = fork(starter, ['bench/load/generator.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    let outcome: LoadOutcome | null = null
    child.on('message', (message: { outcome?: LoadOutcome; error?: string }) => {
      if (message.outcome) outcome = message.outcome
      else reject(new Error(`the load generator failed: ${message.error}`))
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      outcome ? resolve(outcome) : reject(new Error(`the load generator exited ${code} without an outcome`)),
    )
    child.send(plan)
  })
}

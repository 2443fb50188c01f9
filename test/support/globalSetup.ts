import { execFileSync } from 'node:child_process'

/** Runs test/support/prepare.ts in its own process and exports its environment to the workers. */
export default function globalSetup(): void {
  if (process.env.CWA_TEST_TEMPLATE) return
  const out = execFileSync('npx', ['tsx', 'test/support/prepare.ts'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const last = out.trim().split('\n').pop() ?? '{}'
  Object.assign(process.env, JSON.parse(last))
}

import { execFileSync } from 'node:child_process'

/** Runs test/support/prepare.ts in its own process and exports its environment to the workers. */
export default function globalSetup(): void {
  // Sites the tests start run without the embedded Mercure hub: several tests start more than one instance on a
  // database (which it refuses); test/realtime/embeddedHub.test.ts turns it on.
  process.env.MERCURE_EMBEDDED = '0'
  if (!process.env.CWA_TEST_TEMPLATE) prepare()
  // The shims of the modules the files share within a worker, when they do (CWA_TEST_SHARED_MODULES=1: jest.config.js).
  if (process.env.CWA_TEST_SHARED_MODULES === '1')
    execFileSync('npx', ['tsx', 'test/support/outerRealm/manifest.ts'], { stdio: ['ignore', 'inherit', 'inherit'] })
}

function prepare(): void {
  const out = execFileSync('npx', ['tsx', 'test/support/prepare.ts'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const last = out.trim().split('\n').pop() ?? '{}'
  Object.assign(process.env, JSON.parse(last))
}

#!/usr/bin/env node
/**
 * `npm install`'s last step (the root's postinstall): builds the Next.js app (the website at `/` and the admin panel,
 * `next build`, about a minute on 2 cores), so that the first `npm start` serves them within seconds instead of
 * building them while the APIs already answer. A build that fails does not fail the install: the first start builds
 * again and its log says why. `CWA_SKIP_SITE_BUILD=1` skips it (the first start builds then).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

if (process.env.CWA_SKIP_SITE_BUILD === '1') {
  console.log(
    'payload-cwa: the website and admin panel build skipped (CWA_SKIP_SITE_BUILD=1): the first start builds them',
  )
  process.exit(0)
}
const next = createRequire(path.join(root, 'package.json')).resolve('next/dist/bin/next')
const started = Date.now()
console.log('payload-cwa: building the website and the admin panel (next build, about a minute)...')
const result = spawnSync(process.execPath, [next, 'build'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
})
const seconds = ((Date.now() - started) / 1000).toFixed(0)
if (result.status === 0 && existsSync(path.join(root, '.next', 'BUILD_ID'))) {
  console.log(`payload-cwa: the website and the admin panel are built (${seconds} s)`)
} else {
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n')
  console.warn(
    `payload-cwa: next build failed after ${seconds} s; the first \`npm start\` builds again (its log, or \`npm run build:admin\`, says why):\n${output}`,
  )
}

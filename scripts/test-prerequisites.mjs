/**
 * What the selected test files need besides Node.js and PostgreSQL, checked before jest starts, so no test fails
 * late on a missing binary (`spawn varnishd ENOENT`) and none is skipped in silence:
 *
 * - Debian's `varnishd` with the xkey vmod (packages varnish, varnish-modules): files that start a real Varnish
 *   (test/support/varnish.ts);
 * - Debian's chromium (`CHROMIUM_PATH`, default /usr/bin/chromium): files that drive a browser
 *   (test/support/browser.ts).
 *
 * A file needs what it imports, directly or through other files of test/. When something is missing, it is
 * installed with apt-get when this process may (root, apt-get present, `CWA_TEST_INSTALL` not `0`), as .ci/run
 * does; otherwise the run stops with one message naming what is missing and the one command that installs it.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/** What a support module stands for: the Debian packages it needs and how to tell they are there. */
const NEEDS = [
  {
    support: 'test/support/varnish.ts',
    what: 'varnishd with the xkey vmod',
    packages: ['varnish', 'varnish-modules'],
    present: () => onPath('varnishd') && xkeyInstalled(),
  },
  {
    support: 'test/support/browser.ts',
    what: `chromium (${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'})`,
    packages: ['chromium'],
    present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
  },
]

/**
 * Makes sure the Debian packages the selected test files need are installed (installing them when allowed).
 * Returns the message to stop with, or null when everything is there.
 */
export function ensureTestPrerequisites(root, jestArgs) {
  const files = selectedTestFiles(root, jestArgs)
  const reached = reachableFiles(root, files)
  const missing = NEEDS.filter((need) => reached.has(path.join(root, need.support)) && !need.present())
  if (missing.length === 0) return null
  const packages = missing.flatMap((need) => need.packages)
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`
  if (mayInstall()) {
    console.log(`Tests need ${missing.map((need) => need.what).join(' and ')}: installing (${command})`)
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    const args = ['install', '-y', '--no-install-recommends', ...packages]
    // A machine whose package lists were never fetched knows none of them: fetch and try once more.
    if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
      spawnSync('apt-get', args, { stdio: 'inherit', env })
    }
    const still = missing.filter((need) => !need.present())
    if (still.length === 0) return null
    return `The tests need ${still.map((need) => need.what).join(' and ')}, and installing failed: run ${command}`
  }
  return (
    `The selected tests need ${missing.map((need) => need.what).join(' and ')}, which this machine lacks. ` +
    `Install with: sudo ${command}` +
    (process.env.CWA_TEST_INSTALL === '0' ? ' (CWA_TEST_INSTALL=0 kept npm test from installing it)' : '')
  )
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

function xkeyInstalled() {
  return spawnSync('dpkg', ['-s', 'varnish-modules'], { stdio: 'ignore' }).status === 0
}

function mayInstall() {
  return process.env.CWA_TEST_INSTALL !== '0' && process.getuid?.() === 0 && onPath('apt-get')
}

/** The test files jest would run with these arguments (its own selection, so paths and patterns mean the same). */
function selectedTestFiles(root, jestArgs) {
  const out = execFileSync('npx', ['jest', '--listTests', ...jestArgs.filter((a) => !a.startsWith('--json'))], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings` },
  })
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.endsWith('.ts'))
}

/** The files under test/ that the given files import, transitively (relative imports only: the support modules). */
function reachableFiles(root, files) {
  const testRoot = path.join(root, 'test')
  const seen = new Set()
  const queue = [...files]
  while (queue.length > 0) {
    const file = queue.pop()
    if (seen.has(file) || !existsSync(file)) continue
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolveTs(path.resolve(path.dirname(file), match[1]))
      if (target && target.startsWith(testRoot)) queue.push(target)
    }
  }
  return seen
}

function resolveTs(base) {
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate
  return null
}

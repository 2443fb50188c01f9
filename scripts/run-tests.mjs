#!/usr/bin/env node
/**
 * npm test: runs jest (ESM, so with --experimental-vm-modules) and ends with
 * the line "N passed, N failed" that CI reads, followed by ", N skipped"
 * when tests were skipped (it.skip, it.todo), so a skip never goes unseen.
 *
 * Its own arguments (the rest go to jest):
 * - `--unit` (npm run test:unit): only the database-free tier, the `*.unit.test.ts` files, with no PostgreSQL and
 *   no test preparation (jest.unit.config.js). Naming only such files (`npm test -- test/a.unit.test.ts`) does the
 *   same.
 * - `--record-timings`: writes this run's per-file times into the baselines, test/timings.json (the clock) and
 *   test/timings-cpu.json (CPU seconds).
 */
import { spawn, execFileSync } from 'node:child_process'
import { appendFileSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildPlugin } from './build-plugin.mjs'
import { ensureTestPrerequisites } from './test-prerequisites.mjs'
import { testDatabase } from './test-database.mjs'
import {
  excusedFiles,
  fileTimings,
  parseCpuLog,
  parseSharedTime,
  recordedBaseline,
  runArguments,
  slowedFiles,
  slowedLine,
  timingLines,
} from './test-timings.mjs'

const root = process.cwd()
const BASELINE = path.join(root, 'test', 'timings.json')
const CPU_BASELINE = path.join(root, 'test', 'timings-cpu.json')
const { jestArgs, unitTier, recordTimings, judged } = runArguments(process.argv.slice(2), process.env)

// One results file per run, so parallel runs never read each other's.
const results = path.join(tmpdir(), `cwa-test-results-${process.pid}.json`)
rmSync(results, { force: true })
// Where the files record the time they spent on the run's shared work (test/support/sharedTime.ts).
const sharedTime = path.join(tmpdir(), `cwa-test-shared-time-${process.pid}.jsonl`)
rmSync(sharedTime, { force: true })
// Where each file's CPU seconds go (test/support/outerRealm/environment.mjs); appended to the caller's
// CWA_TEST_CPU_LOG, when set, at the end.
const cpuLog = path.join(tmpdir(), `cwa-test-cpu-${process.pid}.log`)
rmSync(cpuLog, { force: true })
// The suite runs against the package as an app imports it (plugins/cwa/dist): built first when a source changed.
buildPlugin()
let database = { url: undefined, stop: async () => {} }
if (unitTier) {
  console.log('Database-free tier: the *.unit.test.ts files, without PostgreSQL')
} else {
  // Varnish and chromium, when the selected files need them: installed as .ci/run does, or one message before any test.
  const refused = ensureTestPrerequisites(root, jestArgs)
  if (refused) {
    console.error(refused)
    process.exit(1)
  }
  database = await testDatabase()
  console.log(`Tests run against ${database.source}`)
}
const config = unitTier ? ['--config', 'jest.unit.config.js'] : []
// Not spawnSync: a signal (Ctrl-C) must still reach the cleanup below, which stops an embedded server.
// Node's `production` condition for jest and its workers (jest.config.js says why); not in NODE_OPTIONS, so the
// processes the tests start (sites, commands) resolve their modules as a user's do.
const jestBin = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js')
const jestCommand = ['--conditions=production', jestBin, ...config, '--json', `--outputFile=${results}`, ...jestArgs]
const child = spawn(process.execPath, jestCommand, {
  stdio: 'inherit',
  env: {
    ...process.env,
    ...(database.url ? { TEST_PG_URL: database.url } : {}),
    CWA_TEST_SHARED_TIME: sharedTime,
    CWA_TEST_CPU_LOG: cpuLog,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim(),
  },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
const run = { status: await new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1))) }
await database.stop()
let passed = 0
let failed = 0
let skipped = 0
if (existsSync(results)) {
  const summary = JSON.parse(readFileSync(results, 'utf8'))
  passed = summary.numPassedTests
  failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites ?? 0)
  skipped = (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0)
  const shared = existsSync(sharedTime) ? parseSharedTime(readFileSync(sharedTime, 'utf8')) : []
  const cpu = existsSync(cpuLog) ? readFileSync(cpuLog, 'utf8') : ''
  if (process.env.CWA_TEST_CPU_LOG) appendFileSync(process.env.CWA_TEST_CPU_LOG, cpu)
  failed += reportTimings(fileTimings(summary.testResults ?? [], root, shared, parseCpuLog(cpu)))
} else {
  failed = 1
}
if (process.env.TEST_TIMINGS && existsSync(results)) copyFileSync(results, process.env.TEST_TIMINGS)
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`)
rmSync(results, { force: true })
rmSync(sharedTime, { force: true })
rmSync(cpuLog, { force: true })
process.exit(run.status === 0 && failed === 0 ? 0 : 1)

/**
 * Every file's time, slowest first, next to its baselines; with --record-timings, the new baselines. In CI, on a run
 * of the whole suite, a file that took more than twice its baseline at the run's pace, in CPU seconds (10 s over
 * it) or on the clock (30 s over it), counts as one failure, unless the commit under test explains it
 * (scripts/test-timings.mjs). Returns the failures it adds.
 */
function reportTimings(timings) {
  if (timings.length === 0) return 0
  const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {})
  const baseline = read(BASELINE)
  const cpuBaseline = read(CPU_BASELINE)
  for (const line of timingLines(timings, baseline, cpuBaseline)) console.log(line)
  if (recordTimings) {
    const exists = (file) => existsSync(path.join(root, file))
    const write = (file, next) => writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`)
    write(BASELINE, recordedBaseline(baseline, timings, exists))
    if (timings.some((t) => typeof t.cpu === 'number'))
      write(CPU_BASELINE, recordedBaseline(cpuBaseline, timings, exists, 'cpu'))
    console.log(`Recorded ${timings.length} files' times in ${path.relative(root, BASELINE)} and their CPU's`)
    return 0
  }
  if (!judged) return 0
  const excused = excusedFiles(commitMessage())
  const slowed = [
    ...slowedFiles(timings, cpuBaseline, excused, 'cpu'),
    ...slowedFiles(timings, baseline, excused, 'seconds'),
  ]
  for (const file of slowed) console.log(slowedLine(file))
  return new Set(slowed.map((s) => s.file)).size
}

/** The message of the commit being tested, where a `Test-time:` line excuses a file; empty outside a git clone. */
function commitMessage() {
  try {
    return execFileSync('git', ['log', '-1', '--format=%B'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  } catch {
    return ''
  }
}

#!/usr/bin/env node
/**
 * npm test: runs jest (ESM, so with --experimental-vm-modules) and ends with
 * the line "N passed, N failed" that CI reads, followed by ", N skipped"
 * when tests were skipped (it.skip, it.todo), so a skip never goes unseen.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildPlugin } from './build-plugin.mjs'
import { ensureTestPrerequisites } from './test-prerequisites.mjs'
import { testDatabase } from './test-database.mjs'

// One results file per run, so parallel runs never read each other's.
const results = path.join(tmpdir(), `cwa-test-results-${process.pid}.json`)
rmSync(results, { force: true })
// The suite runs against the package as an app imports it (plugins/cwa/dist): built first when a source changed.
buildPlugin()
// Varnish and chromium, when the selected files need them: installed as .ci/run does, or one message before any test.
const refused = ensureTestPrerequisites(process.cwd(), process.argv.slice(2))
if (refused) {
  console.error(refused)
  process.exit(1)
}
const database = await testDatabase()
console.log(`Tests run against ${database.source}`)
// Not spawnSync: a signal (Ctrl-C) must still reach the cleanup below, which stops an embedded server.
const child = spawn('npx', ['jest', '--json', `--outputFile=${results}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    TEST_PG_URL: database.url,
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
  printSlowestFiles(summary.testResults ?? [])
} else {
  failed = 1
}
if (process.env.TEST_TIMINGS && existsSync(results)) copyFileSync(results, process.env.TEST_TIMINGS)
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`)
rmSync(results, { force: true })
process.exit(run.status === 0 && failed === 0 ? 0 : 1)

/** The ten files that took longest, and the whole run's file time: where CI's minutes go. */
function printSlowestFiles(files) {
  const timed = files
    .map((f) => ({ file: path.relative(process.cwd(), f.name), seconds: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
  if (timed.length < 2) return
  const total = timed.reduce((sum, f) => sum + f.seconds, 0)
  console.log(`Slowest test files (of ${timed.length}, ${Math.round(total)} s in all):`)
  for (const f of timed.slice(0, 10)) console.log(`  ${f.seconds.toFixed(1).padStart(6)} s  ${f.file}`)
}

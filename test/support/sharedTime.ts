/**
 * Time a test file spends on the run's shared work rather than its own: waiting for, or making, the one
 * `next build` the admin files share. npm test (scripts/run-tests.mjs) leaves it out of the file's time, which the
 * per-file baseline judges, so that time does not depend on which file happened to build.
 */
import { appendFileSync } from 'node:fs'
import { cpuNow } from './cpuTime.mjs'

/**
 * The file being run: said by the test environment (outerRealm/environment.mjs), as this module may be shared by
 * the files of a worker; else jest's global `expect` (the database-free tier).
 */
const currentTestFile = () =>
  process.env.CWA_TEST_FILE ??
  (globalThis as { expect?: { getState(): { testPath?: string } } }).expect?.getState().testPath

/**
 * Runs `work`, recording its duration as shared time of the current test file, and the worker's CPU meanwhile (the
 * build's own, when this file made it), which is left out of the file's CPU seconds too.
 */
export async function asSharedTime<T>(work: () => Promise<T>): Promise<T> {
  const started = Date.now()
  const cpuAtStart = cpuNow()
  try {
    return await work()
  } finally {
    const file = process.env.CWA_TEST_SHARED_TIME
    const testPath = currentTestFile()
    const end = cpuNow()
    const cpu = cpuAtStart && end ? end.self + end.children - cpuAtStart.self - cpuAtStart.children : undefined
    if (file && testPath)
      appendFileSync(file, `${JSON.stringify({ file: testPath, seconds: (Date.now() - started) / 1000, cpu })}\n`)
  }
}

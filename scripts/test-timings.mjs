/**
 * Per-file test times for `npm test` (scripts/run-tests.mjs): every file's time in the log, and a guard against a
 * file that got much slower than the committed baseline (test/timings.json, file -> seconds). Pure functions, so
 * the rule is unit-tested (test/core/testTimings.unit.test.ts); the runner does the reading and writing.
 */
import path from 'node:path'

/** Slower than this many times its expected time fails the run... */
export const SLOWDOWN_FACTOR = 2
/**
 * ...when it also took this many seconds more than expected: on the busy 2-core machine a file that starts child
 * processes (commands, builds) can take twice its time when it happens to run beside the fresh app's build, which
 * is noise (CI's run at 05d9e94: generateFixtures 19.2 s against 8.4 s, every file around it faster than its
 * baseline); a regression that threatens the CI budget adds more than this.
 */
export const FLOOR_SECONDS = 15
/** Files shorter than this in the baseline do not count towards the run's pace (their noise is their size). */
const PACE_MIN_BASELINE = 3

/**
 * What a run of `npm test` is, from its arguments: `--unit` and `--record-timings` are the runner's own, the rest go
 * to jest. Naming only `*.unit.test.ts` files is the database-free tier too. Only a run of every file is judged
 * against the baseline, and only in CI (`CI` set): a subset runs with less contention than the whole suite, and a
 * developer's machine is busy with other things.
 * @param {string[]} args
 * @param {Record<string, string | undefined>} env
 */
export function runArguments(args, env) {
  const jestArgs = args.filter((arg) => arg !== '--record-timings' && arg !== '--unit')
  const named = jestArgs.filter((arg) => !arg.startsWith('-'))
  const onlyUnitFiles =
    named.length > 0 && named.length === jestArgs.length && named.every((arg) => arg.endsWith('.unit.test.ts'))
  const unitTier = args.includes('--unit') || onlyUnitFiles
  return {
    jestArgs,
    unitTier,
    recordTimings: args.includes('--record-timings'),
    judged: jestArgs.length === 0 && !unitTier && Boolean(env.CI),
  }
}

/** The trailer that excuses a file in the commit being tested: `Test-time: test/x/y.test.ts: <why>`. */
const EXCUSE = /^Test-time:[ \t]*(\S+?):[ \t]*\S/gim

/**
 * Each file's time from jest's JSON results (`testResults`), relative to root, slowest first. The time a file spent
 * on the run's shared work (waiting for, or making, the one `next build` every admin file needs) is not its own:
 * it is left out of `seconds` (what the baseline judges) and said apart as `shared`, so a file's time does not
 * depend on whether it was the one that built.
 * @param {Array<{ name: string, startTime: number, endTime: number }>} testResults
 * @param {string} root
 * @param {Array<{ file: string, seconds: number }>} [shared] absolute file paths, as the tests record them
 * @returns {Array<{ file: string, seconds: number, shared?: number }>}
 */
export function fileTimings(testResults, root, shared = []) {
  const relative = (file) => path.relative(root, file).split(path.sep).join('/')
  const sharedBy = new Map()
  for (const { file, seconds } of shared) sharedBy.set(relative(file), (sharedBy.get(relative(file)) ?? 0) + seconds)
  return testResults
    .map((result) => {
      const file = relative(result.name)
      const total = (result.endTime - result.startTime) / 1000
      // Never below zero: a shared wait is timed inside the file's own time.
      const waited = Math.min(sharedBy.get(file) ?? 0, total)
      return { file, seconds: total - waited, ...(waited > 0 ? { shared: waited } : {}) }
    })
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
}

/**
 * The shared waits a run's files recorded (test/support/sharedTime.ts): one JSON object per line, `{file,
 * seconds}`; lines that do not parse (a worker killed while writing) are left out.
 * @param {string} text
 * @returns {Array<{ file: string, seconds: number }>}
 */
export function parseSharedTime(text) {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        const { file, seconds } = JSON.parse(line)
        return typeof file === 'string' && typeof seconds === 'number' ? [{ file, seconds }] : []
      } catch {
        return []
      }
    })
}

/**
 * The files a commit message excuses from the guard, each with its reason line only (a bare name is no reason).
 * @param {string} message
 * @returns {Set<string>}
 */
export function excusedFiles(message) {
  return new Set([...message.matchAll(EXCUSE)].map((match) => match[1]))
}

/**
 * How much slower than its baselines this run went as a whole: the median of time / baseline over the files with a
 * baseline of PACE_MIN_BASELINE seconds or more, never below 1 (a fast run does not tighten the guard). A slower
 * machine, or one busy with something else, makes every file slower; a file is judged against that.
 * @param {Array<{ file: string, seconds: number }>} timings
 * @param {Record<string, number>} baseline
 */
export function runPace(timings, baseline) {
  const ratios = timings
    .filter(({ file }) => typeof baseline[file] === 'number' && baseline[file] >= PACE_MIN_BASELINE)
    .map(({ file, seconds }) => seconds / baseline[file])
    .sort((a, b) => a - b)
  if (ratios.length === 0) return 1
  const middle = Math.floor(ratios.length / 2)
  const median = ratios.length % 2 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
  return Math.max(1, median)
}

/**
 * The files that took more than SLOWDOWN_FACTOR times their expected time (the baseline at the run's pace) and more
 * than FLOOR_SECONDS over it, minus the excused ones. Files without a baseline (new ones) are not judged.
 * @param {Array<{ file: string, seconds: number }>} timings
 * @param {Record<string, number>} baseline
 * @param {Set<string>} excused
 * @returns {Array<{ file: string, seconds: number, baseline: number, pace: number }>}
 */
export function slowedFiles(timings, baseline, excused = new Set()) {
  const pace = runPace(timings, baseline)
  return timings
    .filter(({ file }) => typeof baseline[file] === 'number' && !excused.has(file))
    .filter(({ file, seconds }) => {
      const expected = baseline[file] * pace
      return seconds > SLOWDOWN_FACTOR * expected && seconds - expected > FLOOR_SECONDS
    })
    .map(({ file, seconds }) => ({ file, seconds, baseline: baseline[file], pace }))
}

/** The one line that fails the run for a file, saying how to excuse it when the slowdown is meant. */
export function slowedLine({ file, seconds, baseline, pace = 1 }) {
  const atPace = pace > 1 ? ` (${(baseline * pace).toFixed(1)} s at this run's pace, ${pace.toFixed(2)}x)` : ''
  return (
    `Test time: ${file} took ${seconds.toFixed(1)} s, more than ${SLOWDOWN_FACTOR}x its baseline ` +
    `${baseline.toFixed(1)} s${atPace} (test/timings.json), over it by more than ${FLOOR_SECONDS} s; speed it up, or explain it ` +
    `in the commit message with a line "Test-time: ${file}: <why>" and re-record the baseline ` +
    `(npm test -- --record-timings)`
  )
}

/**
 * Every file's time, one line each, slowest first, with its baseline when there is one.
 * @param {Array<{ file: string, seconds: number, shared?: number }>} timings
 * @param {Record<string, number>} baseline
 * @returns {string[]}
 */
export function timingLines(timings, baseline = {}) {
  const total = timings.reduce((sum, t) => sum + t.seconds, 0)
  return [
    `Test files by time (${timings.length} files, ${Math.round(total)} s in all):`,
    ...timings.map(({ file, seconds, shared }) => {
      const was = typeof baseline[file] === 'number' ? `  (baseline ${baseline[file].toFixed(1)} s)` : ''
      const waited = shared && shared >= 0.05 ? `  (and ${shared.toFixed(1)} s on the shared next build)` : ''
      return `  ${seconds.toFixed(1).padStart(6)} s  ${file}${was}${waited}`
    }),
  ]
}

/**
 * The baseline after a run: the files that ran get this run's time (to a tenth of a second), the others keep theirs
 * unless they no longer exist; sorted by file, so a re-record's diff shows what changed.
 * @param {Record<string, number>} baseline
 * @param {Array<{ file: string, seconds: number }>} timings
 * @param {(file: string) => boolean} exists
 * @returns {Record<string, number>}
 */
export function recordedBaseline(baseline, timings, exists) {
  const merged = { ...baseline }
  for (const file of Object.keys(merged)) if (!exists(file)) delete merged[file]
  for (const { file, seconds } of timings) merged[file] = Math.round(seconds * 10) / 10
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)))
}

/**
 * Per-file test times for `npm test` (scripts/run-tests.mjs): every file's time in the log, and a guard against a
 * file that got much slower than the committed baselines: test/timings.json (file -> seconds, its time on the clock)
 * and test/timings-cpu.json (file -> CPU seconds, in its worker and in the processes it started). Pure functions,
 * so the rule is unit-tested (test/core/testTimings.unit.test.ts); the runner does the reading and writing.
 */
import path from 'node:path'

/** Slower than this many times its expected time fails the run... */
export const SLOWDOWN_FACTOR = 2
/**
 * ...when it also took this many seconds more than expected, per measure. CPU seconds are what a file costs the
 * run (the 2-core machine is CPU-bound) and barely depend on what runs beside it. The clock is judged too, for a
 * file that starts to wait, but with a larger margin: on the busy machine a file that starts child processes
 * (commands, builds) can take three times its clock time beside the fresh app's build (CI's runs at 05d9e94:
 * generateFixtures 19.2 and 23.7 s against 8.4 s, on 7 s of CPU).
 */
export const FLOOR_SECONDS = { cpu: 10, seconds: 30 }
/** Files under this in the baseline do not count towards the run's pace (their noise is their size). */
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
 * Each file's time from jest's JSON results (`testResults`), relative to root, slowest first, with its CPU seconds
 * when the run logged them (`cpu`, from parseCpuLog). The time a file spent on the run's shared work (waiting for,
 * or making, the one `next build` every admin file needs) is not its own: it is left out of `seconds` and `cpu`
 * (what the baselines judge) and said apart as `shared`, so a file's time does not depend on whether it built.
 * @param {Array<{ name: string, startTime: number, endTime: number }>} testResults
 * @param {string} root
 * @param {Array<{ file: string, seconds: number, cpu?: number }>} [shared] absolute file paths, as the tests record them
 * @param {Array<{ file: string, cpu: number }>} [cpu] absolute file paths
 * @returns {Array<{ file: string, seconds: number, shared?: number, cpu?: number }>}
 */
export function fileTimings(testResults, root, shared = [], cpu = []) {
  const relative = (file) => path.relative(root, file).split(path.sep).join('/')
  const sum = (into, file, value) => into.set(relative(file), (into.get(relative(file)) ?? 0) + value)
  const sharedBy = new Map()
  const sharedCpuBy = new Map()
  const cpuBy = new Map()
  for (const entry of shared) {
    sum(sharedBy, entry.file, entry.seconds)
    sum(sharedCpuBy, entry.file, entry.cpu ?? 0)
  }
  for (const entry of cpu) sum(cpuBy, entry.file, entry.cpu)
  return testResults
    .map((result) => {
      const file = relative(result.name)
      const total = (result.endTime - result.startTime) / 1000
      // Never below zero: a shared wait is timed inside the file's own time.
      const waited = Math.min(sharedBy.get(file) ?? 0, total)
      const own = cpuBy.has(file) ? { cpu: Math.max(0, cpuBy.get(file) - (sharedCpuBy.get(file) ?? 0)) } : {}
      return { file, seconds: total - waited, ...(waited > 0 ? { shared: waited } : {}), ...own }
    })
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
}

/**
 * The CPU seconds each file spent (test/support/outerRealm/environment.mjs writes them when CWA_TEST_CPU_LOG names
 * a file): one line per file, `<own> <its processes'> <path>`; lines that do not parse are left out.
 * @param {string} text
 * @returns {Array<{ file: string, cpu: number }>}
 */
export function parseCpuLog(text) {
  return text.split('\n').flatMap((line) => {
    const match = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\S.*)$/.exec(line.trim())
    return match ? [{ file: match[3], cpu: Number(match[1]) + Number(match[2]) }] : []
  })
}

/**
 * The shared waits a run's files recorded (test/support/sharedTime.ts): one JSON object per line, `{file,
 * seconds, cpu}` (cpu: the worker's CPU seconds meanwhile, the build's when it built); lines that do not parse (a worker killed while writing) are left out.
 * @param {string} text
 * @returns {Array<{ file: string, seconds: number, cpu?: number }>}
 */
export function parseSharedTime(text) {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        const { file, seconds, cpu } = JSON.parse(line)
        if (typeof file !== 'string' || typeof seconds !== 'number') return []
        return [{ file, seconds, ...(typeof cpu === 'number' ? { cpu } : {}) }]
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
 * How much slower than its baselines this run went as a whole, in one measure (`seconds` or `cpu`): the median of
 * time / baseline over the files with a baseline of PACE_MIN_BASELINE seconds or more, never below 1 (a fast run
 * does not tighten the guard). A slower machine makes every file slower; a file is judged against that.
 * @param {Array<{ file: string, seconds: number, cpu?: number }>} timings
 * @param {Record<string, number>} baseline
 * @param {'seconds' | 'cpu'} [measure]
 */
export function runPace(timings, baseline, measure = 'seconds') {
  const ratios = timings
    .filter((t) => typeof t[measure] === 'number' && baseline[t.file] >= PACE_MIN_BASELINE)
    .map((t) => t[measure] / baseline[t.file])
    .sort((a, b) => a - b)
  if (ratios.length === 0) return 1
  const middle = Math.floor(ratios.length / 2)
  const median = ratios.length % 2 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
  return Math.max(1, median)
}

/**
 * The files whose `measure` took more than SLOWDOWN_FACTOR times their expected time (the baseline at the run's
 * pace) and more than FLOOR_SECONDS[measure] over it, minus the excused ones. Files without a baseline or without
 * the measure (new ones; no CPU log) are not judged.
 * @param {Array<{ file: string, seconds: number, cpu?: number }>} timings
 * @param {Record<string, number>} baseline
 * @param {Set<string>} excused
 * @param {'seconds' | 'cpu'} [measure]
 * @returns {Array<{ file: string, seconds: number, baseline: number, pace: number, measure: string }>}
 */
export function slowedFiles(timings, baseline, excused = new Set(), measure = 'seconds') {
  const pace = runPace(timings, baseline, measure)
  return timings
    .filter((t) => typeof baseline[t.file] === 'number' && typeof t[measure] === 'number' && !excused.has(t.file))
    .filter((t) => {
      const expected = baseline[t.file] * pace
      return t[measure] > SLOWDOWN_FACTOR * expected && t[measure] - expected > FLOOR_SECONDS[measure]
    })
    .map((t) => ({ file: t.file, seconds: t[measure], baseline: baseline[t.file], pace, measure }))
}

/** The one line that fails the run for a file, saying how to excuse it when the slowdown is meant. */
export function slowedLine({ file, seconds, baseline, pace = 1, measure = 'seconds' }) {
  const unit = measure === 'cpu' ? ' of CPU' : ''
  const source = measure === 'cpu' ? 'test/timings-cpu.json' : 'test/timings.json'
  const atPace = pace > 1 ? ` (${(baseline * pace).toFixed(1)} s at this run's pace, ${pace.toFixed(2)}x)` : ''
  return (
    `Test time: ${file} took ${seconds.toFixed(1)} s${unit}, more than ${SLOWDOWN_FACTOR}x its baseline ` +
    `${baseline.toFixed(1)} s${atPace} (${source}), over it by more than ${FLOOR_SECONDS[measure]} s; speed it up, ` +
    `or explain it in the commit message with a line "Test-time: ${file}: <why>" and re-record the baseline ` +
    `(npm test -- --record-timings)`
  )
}

/**
 * Every file's time, one line each, slowest first, with its baseline when there is one, and its CPU seconds (and
 * their baseline) when the run logged them.
 * @param {Array<{ file: string, seconds: number, shared?: number, cpu?: number }>} timings
 * @param {Record<string, number>} baseline
 * @param {Record<string, number>} [cpuBaseline]
 * @returns {string[]}
 */
export function timingLines(timings, baseline = {}, cpuBaseline = {}) {
  const total = timings.reduce((sum, t) => sum + t.seconds, 0)
  const cpuTotal = timings.reduce((sum, t) => sum + (t.cpu ?? 0), 0)
  const cpuSaid = timings.some((t) => typeof t.cpu === 'number') ? `, ${Math.round(cpuTotal)} s of CPU` : ''
  return [
    `Test files by time (${timings.length} files, ${Math.round(total)} s in all${cpuSaid}):`,
    ...timings.map(({ file, seconds, shared, cpu }) => {
      const was = typeof baseline[file] === 'number' ? `  (baseline ${baseline[file].toFixed(1)} s)` : ''
      const cpuWas = typeof cpuBaseline[file] === 'number' ? ` (baseline ${cpuBaseline[file].toFixed(1)} s)` : ''
      const used = typeof cpu === 'number' ? `  CPU ${cpu.toFixed(1)} s${cpuWas}` : ''
      const waited = shared && shared >= 0.05 ? `  (and ${shared.toFixed(1)} s on the shared next build)` : ''
      return `  ${seconds.toFixed(1).padStart(6)} s  ${file}${was}${used}${waited}`
    }),
  ]
}

/**
 * A baseline after a run: the files that ran get this run's `measure` (to a tenth of a second), the others keep
 * theirs unless they no longer exist; sorted by file, so a re-record's diff shows what changed.
 * @param {Record<string, number>} baseline
 * @param {Array<{ file: string, seconds: number, cpu?: number }>} timings
 * @param {(file: string) => boolean} exists
 * @param {'seconds' | 'cpu'} [measure]
 * @returns {Record<string, number>}
 */
export function recordedBaseline(baseline, timings, exists, measure = 'seconds') {
  const merged = { ...baseline }
  for (const file of Object.keys(merged)) if (!exists(file)) delete merged[file]
  for (const t of timings) if (typeof t[measure] === 'number') merged[t.file] = Math.round(t[measure] * 10) / 10
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)))
}

/**
 * Issue 38, per-file test times: `npm test` prints every file's time, and in CI a run of the whole suite fails on a
 * file that took more than twice its committed baseline at the run's pace, in CPU seconds (test/timings-cpu.json, 10 s
 * over it) or on the clock (test/timings.json, 30 s over it), unless the commit under test gives a reason for it (scripts/test-timings.mjs, used by scripts/run-tests.mjs).
 */
import { describe, expect, it } from '@jest/globals'
import path from 'node:path'
import {
  excusedFiles,
  fileTimings,
  FLOOR_SECONDS,
  parseCpuLog,
  parseSharedTime,
  recordedBaseline,
  runArguments,
  runPace,
  slowedFiles,
  slowedLine,
  timingLines,
} from '../../scripts/test-timings.mjs'

const root = '/repo'
const result = (file: string, seconds: number) => ({
  name: path.join(root, file),
  startTime: 1_000_000,
  endTime: 1_000_000 + seconds * 1000,
})

describe('per-file test times', () => {
  it("reads each file's time from jest's results, relative to the project, slowest first", () => {
    expect(
      fileTimings([result('test/a.test.ts', 3), result('test/b/c.test.ts', 40.25), result('test/d.test.ts', 3)], root),
    ).toEqual([
      { file: 'test/b/c.test.ts', seconds: 40.25 },
      { file: 'test/a.test.ts', seconds: 3 },
      { file: 'test/d.test.ts', seconds: 3 },
    ])
  })

  it("leaves a file's shared waits (the one next build) out of its own time, and says them apart", () => {
    const shared = parseSharedTime(
      [
        JSON.stringify({ file: '/repo/test/admin/a.test.ts', seconds: 40 }),
        JSON.stringify({ file: '/repo/test/admin/a.test.ts', seconds: 4.5 }),
        '{"file": "/repo/test/admin/b.test.ts", "seconds": 2', // a worker killed while writing
        JSON.stringify({ file: '/repo/test/c.test.ts', seconds: 99 }),
        '',
      ].join('\n'),
    )
    expect(shared).toEqual([
      { file: '/repo/test/admin/a.test.ts', seconds: 40 },
      { file: '/repo/test/admin/a.test.ts', seconds: 4.5 },
      { file: '/repo/test/c.test.ts', seconds: 99 },
    ])
    const timings = fileTimings(
      [result('test/admin/a.test.ts', 60), result('test/admin/b.test.ts', 20), result('test/c.test.ts', 30)],
      root,
      shared,
    )
    expect(timings).toEqual([
      { file: 'test/admin/b.test.ts', seconds: 20 },
      { file: 'test/admin/a.test.ts', seconds: 15.5, shared: 44.5 },
      // Never below zero.
      { file: 'test/c.test.ts', seconds: 0, shared: 30 },
    ])
    // Judged on its own time: 15.5 s against a 10 s baseline is no doubling.
    expect(slowedFiles(timings, { 'test/admin/a.test.ts': 10 })).toEqual([])
    expect(timingLines(timings)[2]).toBe('    15.5 s  test/admin/a.test.ts  (and 44.5 s on the shared next build)')
  })

  it("adds each file's CPU seconds from the run's CPU log, without the CPU of the shared build it made", () => {
    const cpu = parseCpuLog(
      [
        '3.0 176.9 /repo/test/package/freshApp.test.ts',
        '1.2 80.0 /repo/test/admin/a.test.ts',
        '0.5 0.0 /repo/test/admin/a.test.ts', // a file jest ran twice (a retry) adds up
        '4.3 39', // a worker killed while writing
        '',
      ].join('\n'),
    )
    expect(cpu).toEqual([
      { file: '/repo/test/package/freshApp.test.ts', cpu: 179.9 },
      { file: '/repo/test/admin/a.test.ts', cpu: 81.2 },
      { file: '/repo/test/admin/a.test.ts', cpu: 0.5 },
    ])
    const shared = parseSharedTime(JSON.stringify({ file: '/repo/test/admin/a.test.ts', seconds: 50, cpu: 78.5 }))
    const timings = fileTimings(
      [result('test/package/freshApp.test.ts', 300), result('test/admin/a.test.ts', 60), result('test/b.test.ts', 2)],
      root,
      shared,
      cpu,
    )
    expect(timings.map(({ file, cpu }) => [file, cpu === undefined ? cpu : Math.round(cpu * 10) / 10])).toEqual([
      ['test/package/freshApp.test.ts', 179.9],
      ['test/admin/a.test.ts', 3.2],
      // No CPU line: not judged on CPU.
      ['test/b.test.ts', undefined],
    ])
    expect(timingLines(timings, {}, { 'test/package/freshApp.test.ts': 170 })[1]).toBe(
      '   300.0 s  test/package/freshApp.test.ts  CPU 179.9 s (baseline 170.0 s)',
    )
  })

  it('prints every file, one line each, with its baseline when it has one', () => {
    const lines = timingLines(
      [
        { file: 'test/slow.test.ts', seconds: 40.04 },
        { file: 'test/new.test.ts', seconds: 1.5 },
      ],
      { 'test/slow.test.ts': 20 },
    )
    expect(lines).toEqual([
      'Test files by time (2 files, 42 s in all):',
      '    40.0 s  test/slow.test.ts  (baseline 20.0 s)',
      '     1.5 s  test/new.test.ts',
    ])
  })
})

describe('the guard against a file that doubles', () => {
  const baseline = {
    'test/a.test.ts': 20,
    'test/tiny.test.ts': 2,
    'test/b.test.ts': 30,
    'test/s1.test.ts': 10,
    'test/s2.test.ts': 10,
    'test/s3.test.ts': 10,
  }
  // Three files on their baseline: the run's pace is 1 whatever a and b do.
  const steady = ['test/s1.test.ts', 'test/s2.test.ts', 'test/s3.test.ts'].map((file) => ({ file, seconds: 10 }))

  it('fails a file past twice its baseline and past the floor; one just under twice, or a new file, passes', () => {
    const slowed = slowedFiles(
      [
        { file: 'test/a.test.ts', seconds: 50.1 },
        { file: 'test/b.test.ts', seconds: 59.9 },
        { file: 'test/new.test.ts', seconds: 300 },
        ...steady,
      ],
      baseline,
    )
    expect(slowed).toEqual([{ file: 'test/a.test.ts', seconds: 50.1, baseline: 20, pace: 1, measure: 'seconds' }])
  })

  it('judges CPU seconds against their own baseline with a floor of 10 s, the clock with a floor of 30 s', () => {
    const cpuBaseline = { 'test/g.test.ts': 7, 'test/s1.test.ts': 10, 'test/s2.test.ts': 10, 'test/s3.test.ts': 10 }
    // CI's runs at 05d9e94: a file that starts commands took 19.2 and 23.7 s on the clock against 8.4 s, beside the
    // fresh app's build, on 7 s of CPU: neither measure fails it.
    const steadyCpu = steady.map((t) => ({ ...t, cpu: 10 }))
    const contended = [{ file: 'test/g.test.ts', seconds: 23.7, cpu: 7.3 }, ...steadyCpu]
    expect(slowedFiles(contended, { ...baseline, 'test/g.test.ts': 8.4 })).toEqual([])
    expect(slowedFiles(contended, cpuBaseline, new Set(), 'cpu')).toEqual([])
    // Three times its CPU, 14 s over it: judged on CPU, it fails, whatever the clock said.
    const costlier = [{ file: 'test/g.test.ts', seconds: 9, cpu: 21.1 }, ...steadyCpu]
    expect(slowedFiles(costlier, cpuBaseline, new Set(), 'cpu')).toEqual([
      { file: 'test/g.test.ts', seconds: 21.1, baseline: 7, pace: 1, measure: 'cpu' },
    ])
    expect(slowedFiles([{ file: 'test/g.test.ts', seconds: 9, cpu: 16.9 }], cpuBaseline, new Set(), 'cpu')).toEqual([])
    // A run without a CPU log (jest started by hand) judges the clock alone.
    expect(slowedFiles([{ file: 'test/g.test.ts', seconds: 9 }], cpuBaseline, new Set(), 'cpu')).toEqual([])
  })

  it('never fails a file less than the floor over its expected time, however many times it took (noise)', () => {
    const floor = FLOOR_SECONDS.seconds
    expect(slowedFiles([{ file: 'test/tiny.test.ts', seconds: 2 + floor }], baseline)).toEqual([])
    expect(slowedFiles([{ file: 'test/tiny.test.ts', seconds: 2 + floor + 0.1 }], baseline)).toHaveLength(1)
  })

  it("judges a file against the run's pace: a run slower as a whole raises every expected time", () => {
    const base = { 'test/a.test.ts': 20, 'test/b.test.ts': 30, 'test/c.test.ts': 10, 'test/tiny.test.ts': 1 }
    // Everything 1.5x slower (the tiny file's 10x does not count towards the pace): a at 3x is exactly 2x expected.
    const slow = [
      { file: 'test/a.test.ts', seconds: 60 },
      { file: 'test/b.test.ts', seconds: 45 },
      { file: 'test/c.test.ts', seconds: 15 },
      { file: 'test/tiny.test.ts', seconds: 10 },
    ]
    expect(runPace(slow, base)).toBe(1.5)
    expect(slowedFiles(slow, base)).toEqual([])
    // At the same pace, 61 s is more than twice 30 s and more than 30 s over it.
    const slower = slow.map((t) => (t.file === 'test/a.test.ts' ? { ...t, seconds: 61 } : t))
    expect(slowedFiles(slower, base)).toEqual([
      { file: 'test/a.test.ts', seconds: 61, baseline: 20, pace: 1.5, measure: 'seconds' },
    ])
    expect(slowedLine(slowedFiles(slower, base)[0]!)).toContain("(30.0 s at this run's pace, 1.50x)")
    // A fast run never tightens the guard.
    expect(runPace([{ file: 'test/a.test.ts', seconds: 5 }], base)).toBe(1)
  })

  it('lets a file through when the commit message gives a reason line for it, and only that file', () => {
    const message = [
      'Forms: validate every field of the submission',
      '',
      'Test-time: test/b.test.ts:',
      'Test-time: test/a.test.ts: now covers the 40 fields of the long form',
    ].join('\n')
    const excused = excusedFiles(message)
    expect([...excused]).toEqual(['test/a.test.ts'])
    const timings = [{ file: 'test/a.test.ts', seconds: 80 }, { file: 'test/b.test.ts', seconds: 80 }, ...steady]
    expect(slowedFiles(timings, baseline, excused).map((s) => s.file)).toEqual(['test/b.test.ts'])
  })

  it('says in one line which file, how slow, against what, and how to excuse it', () => {
    expect(slowedLine({ file: 'test/a.test.ts', seconds: 51, baseline: 20 })).toBe(
      'Test time: test/a.test.ts took 51.0 s, more than 2x its baseline 20.0 s (test/timings.json), over it by more ' +
        'than 30 s; speed it up, or explain it in the commit message with a line "Test-time: test/a.test.ts: <why>" ' +
        'and re-record the baseline (npm test -- --record-timings)',
    )
    expect(slowedLine({ file: 'test/g.test.ts', seconds: 21.1, baseline: 7, measure: 'cpu' })).toMatch(
      /^Test time: test\/g.test.ts took 21.1 s of CPU, more than 2x its baseline 7.0 s \(test\/timings-cpu.json\), over it by more than 10 s;/,
    )
  })
})

describe('recording the baseline', () => {
  it("takes this run's times to a tenth of a second, keeps files that did not run, drops deleted ones, sorted", () => {
    const next = recordedBaseline(
      { 'test/z.test.ts': 5, 'test/gone.test.ts': 9, 'test/a.test.ts': 1 },
      [
        { file: 'test/a.test.ts', seconds: 12.345 },
        { file: 'test/m.test.ts', seconds: 0.04 },
      ],
      (file) => file !== 'test/gone.test.ts',
    )
    expect(Object.entries(next)).toEqual([
      ['test/a.test.ts', 12.3],
      ['test/m.test.ts', 0],
      ['test/z.test.ts', 5],
    ])
    // The CPU baseline: the files the run measured; a file without a CPU line keeps its old value.
    const cpu = recordedBaseline(
      { 'test/a.test.ts': 1, 'test/z.test.ts': 5 },
      [
        { file: 'test/a.test.ts', seconds: 12.345, cpu: 6.66 },
        { file: 'test/z.test.ts', seconds: 1 },
      ],
      () => true,
      'cpu',
    )
    expect(cpu).toEqual({ 'test/a.test.ts': 6.7, 'test/z.test.ts': 5 })
  })
})

describe('which runs are judged', () => {
  const ci = { CI: 'true' }
  it('only a run of the whole suite in CI: never a subset, the unit tier, a developer machine or a recording', () => {
    expect(runArguments([], ci).judged).toBe(true)
    expect(runArguments([], {}).judged).toBe(false)
    expect(runArguments(['test/forms'], ci).judged).toBe(false)
    expect(runArguments(['-t', 'login'], ci).judged).toBe(false)
    expect(runArguments(['--unit'], ci).judged).toBe(false)
    expect(runArguments(['--record-timings'], ci)).toMatchObject({ jestArgs: [], recordTimings: true })
  })

  it('runs the database-free tier for --unit, or when every file named is a *.unit.test.ts file', () => {
    expect(runArguments(['--unit'], {})).toMatchObject({ unitTier: true, jestArgs: [] })
    expect(runArguments(['test/a.unit.test.ts', 'test/b.unit.test.ts'], {}).unitTier).toBe(true)
    expect(runArguments(['test/a.unit.test.ts', 'test/b.test.ts'], {}).unitTier).toBe(false)
    expect(runArguments(['test/core'], {}).unitTier).toBe(false)
    expect(runArguments([], {}).unitTier).toBe(false)
  })
})

/**
 * The order test files start in (jest's `testSequencer`). Jest starts the
 * slowest files first when it has the timings of an earlier run, and the
 * largest otherwise: right for most files. Two things it cannot know on a
 * fresh clone, which is what CI runs:
 *
 * - The site's `next build` (test/support/nextBuild.ts) is made by the first
 *   file that needs it while every other such file waits for it. When there
 *   is no build yet, that first file starts first and the others after a
 *   third of the files, by when the build is there: no worker sits waiting.
 * - Files that start child processes (console commands, whole sites) are the
 *   slowest whatever their size. Without timings they start before the rest,
 *   so the run does not end on one of them while the other worker idles.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import Sequencer from '@jest/test-sequencer'

const Base = Sequencer.default ?? Sequencer
const NEEDS_NEXT_BUILD = /\b(ensureAdminBuild|startAdminSite)\(/
const STARTS_PROCESSES = /\b(spawn|spawnSync|execFile|execFileSync|runPayloadCommand|startSite|startAdminSite)\(/

export default class CwaSequencer extends Base {
  sort(tests) {
    const sorted = super.sort(tests)
    const source = new Map(sorted.map((test) => [test.path, readFileSync(test.path, 'utf8')]))
    const timed = sorted.some((test) => test.duration != null)
    const ordered = timed
      ? sorted
      : [
          ...sorted.filter((t) => STARTS_PROCESSES.test(source.get(t.path))),
          ...sorted.filter((t) => !STARTS_PROCESSES.test(source.get(t.path))),
        ]
    const root = sorted[0]?.context.config.rootDir ?? process.cwd()
    if (existsSync(path.join(root, '.next', 'BUILD_ID'))) return ordered
    const [builder, ...waiters] = ordered.filter((t) => NEEDS_NEXT_BUILD.test(source.get(t.path)))
    if (!builder) return ordered
    const others = ordered.filter((t) => t !== builder && !waiters.includes(t))
    const third = Math.floor(others.length / 3)
    return [builder, ...others.slice(0, third), ...waiters, ...others.slice(third)]
  }
}

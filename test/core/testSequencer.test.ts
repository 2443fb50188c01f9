import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import CwaSequencer from '../support/sequencer.mjs'

/**
 * The order test files start in on a fresh clone (test/support/sequencer.mjs):
 * the file that makes the site's `next build` first, the files that wait for
 * it after a third of the rest, files that start processes before the others.
 */

let dir: string
/** `name(`, built so that this file's own text never reads as a call (the sequencer reads test files). */
const call = (name: string) => `${name}${'('}`
const sources: Record<string, string> = {
  'plain-big.test.ts': `it('a', () => {})\n${'// filler\n'.repeat(400)}`,
  'plain-small.test.ts': `it('b', () => {})`,
  'plain-mid-1.test.ts': `it('c', () => {})\n${'// filler\n'.repeat(100)}`,
  'plain-mid-2.test.ts': `it('d', () => {})\n${'// filler\n'.repeat(90)}`,
  'plain-mid-3.test.ts': `it('e', () => {})\n${'// filler\n'.repeat(80)}`,
  'command.test.ts': `await ${call('runPayloadCommand')}'cwa:scan-orphaned')`,
  'admin-a.test.ts': `await ${call('startAdminSite')})\n${'// filler\n'.repeat(300)}`,
  'admin-b.test.ts': `await ${call('startAdminSite')})\n${'// filler\n'.repeat(200)}`,
  'route-handler.test.ts': `await ${call('ensureAdminBuild')})\n${'// filler\n'.repeat(50)}`,
}

function order(): string[] {
  const context = {
    config: { cache: false, rootDir: dir },
    hasteFS: { getSize: (file: string) => statSync(file).size },
  }
  const tests = Object.keys(sources).map((name) => ({ path: path.join(dir, name), context }))
  return new CwaSequencer().sort(tests as never).map((test: { path: string }) => path.basename(test.path))
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cwa-sequencer-'))
  for (const [name, text] of Object.entries(sources)) writeFileSync(path.join(dir, name), text)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the test sequencer, without timings of an earlier run', () => {
  it('with no next build: the builder first, the files waiting for the build after a third of the others', () => {
    expect(order()).toEqual([
      'admin-a.test.ts', // the largest of the three that need the build: it makes it
      'command.test.ts', // starts processes: before the plain files
      'plain-big.test.ts',
      'admin-b.test.ts', // starts processes too, but waits for the build
      'route-handler.test.ts',
      'plain-mid-1.test.ts',
      'plain-mid-2.test.ts',
      'plain-mid-3.test.ts',
      'plain-small.test.ts',
    ])
  })

  it('with a build: files that start processes first, then by size', () => {
    mkdirSync(path.join(dir, '.next'))
    writeFileSync(path.join(dir, '.next', 'BUILD_ID'), 'x')
    expect(order()).toEqual([
      'admin-a.test.ts',
      'admin-b.test.ts',
      'command.test.ts',
      'plain-big.test.ts',
      'plain-mid-1.test.ts',
      'plain-mid-2.test.ts',
      'plain-mid-3.test.ts',
      'route-handler.test.ts',
      'plain-small.test.ts',
    ])
  })
})

/**
 * The import rules of .dependency-cruiser.cjs that go beyond one import (issue 38): a cycle between two feature
 * folders, each import going through the other's index.ts, and a cycle in the reference site through a lazy
 * import(). Each fixture is a small tree in a temporary folder, cruised with the repository's own configuration as
 * `npm run check:boundaries` cruises the repository; the same tree without the back edge passes. And the size
 * rule of eslint.config.js: a source file past 300 lines fails `npm run lint`, a test file does not.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const repository = process.cwd()
const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

/** Writes the files under a fresh folder and cruises them; returns the names of the rules broken. */
function cruise(files: Record<string, string>, paths: string[]): string[] {
  const root = mkdtempSync(path.join(tmpdir(), 'cwa-boundaries-'))
  roots.push(root)
  const tsconfig = { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }
  for (const [file, text] of Object.entries({ 'tsconfig.json': JSON.stringify(tsconfig), ...files })) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  const output = execFileSync(
    path.join(repository, 'node_modules', '.bin', 'depcruise'),
    ['--config', path.join(repository, '.dependency-cruiser.cjs'), '--output-type', 'json', ...paths],
    { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  )
  const result = JSON.parse(output) as { summary: { violations: Array<{ rule: { name: string } }> } }
  return [...new Set(result.summary.violations.map((violation) => violation.rule.name))].sort()
}

/** Two features: `pages` uses `notes`; with `back`, a view of `notes` (its admin/ folder) uses `pages`. */
const features = (back: boolean): Record<string, string> => ({
  'plugins/cwa/core/names.ts': `export const names = ['page', 'note']\n`,
  'plugins/cwa/features/pages/index.ts': `import { noteCount } from '../notes/index.js'\nexport const pageCount = () => noteCount() + 1\n`,
  'plugins/cwa/features/notes/index.ts': `import { names } from '../../core/names.js'\nexport const noteCount = () => names.length\n`,
  'plugins/cwa/features/notes/admin/NotesView.ts': back
    ? `import { pageCount } from '../../pages/index.js'\nexport const NotesView = () => String(pageCount())\n`
    : `import { noteCount } from '../index.js'\nexport const NotesView = () => String(noteCount())\n`,
})

/** The site: the config imports src/config/, and src/server/bootstrap.ts loads the config lazily. */
const site = (back: boolean): Record<string, string> => ({
  'payload.config.ts': `import { environment } from './src/config/commands.js'\nexport default { environment }\n`,
  'src/config/commands.ts': back
    ? `import { migrate } from '../server/bootstrap.js'\nexport const environment = { ready: migrate }\n`
    : `import { migrate } from '../server/migrate.js'\nexport const environment = { ready: migrate }\n`,
  'src/server/migrate.ts': `export async function migrate(): Promise<void> {}\n`,
  'src/server/bootstrap.ts': [
    `export { migrate } from './migrate.js'`,
    `export const start = async () => (await import('../../payload.config.js')).default`,
    ``,
  ].join('\n'),
})

/** The ESLint rule ids each text gets under its file name (ESLint's own API, in a child process: the config is an ES module). */
function lintRules(fixtures: Array<{ file: string; code: string }>): string[][] {
  const script = `
    import { ESLint } from 'eslint'
    const eslint = new ESLint()
    const out = []
    for (const { file, code } of JSON.parse(process.argv[1])) {
      const [result] = await eslint.lintText(code, { filePath: file })
      out.push(result.messages.map(({ ruleId }) => ruleId))
    }
    console.log(JSON.stringify(out))`
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(fixtures)], {
    cwd: repository,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  return JSON.parse(output)
}

/** A module of `lines` lines (the last one ends with a newline). */
const moduleOf = (lines: number) =>
  Array.from({ length: lines }, (_, index) => `export const value${index} = ${index}\n`).join('')

describe('file size', () => {
  it('fails a source file past 300 lines, in the library and the site, and leaves tests alone', () => {
    const [library, atLimit, site, test] = lintRules([
      { file: 'plugins/cwa/features/probe/long.ts', code: moduleOf(301) },
      { file: 'plugins/cwa/features/probe/long.ts', code: moduleOf(300) },
      { file: 'src/server/long.ts', code: moduleOf(301) },
      { file: 'test/probe/long.test.ts', code: moduleOf(301) },
    ])
    expect(library).toEqual(['max-lines'])
    expect(atLimit).toEqual([])
    expect(site).toEqual(['max-lines'])
    expect(test).toEqual([])
  })
})

describe('boundary rules across imports', () => {
  it('refuses two features that import each other, each through the other index.ts', () => {
    expect(cruise(features(true), ['plugins'])).toEqual(['no-feature-cycle'])
    expect(cruise(features(false), ['plugins'])).toEqual([])
  })

  it('keeps payload-cwa/client to its own files: no other part of the library, no Node built-in', () => {
    const client = (extra: string): Record<string, string> => ({
      'plugins/cwa/core/naming.ts': `export const segment = (name: string) => name.toLowerCase()\n`,
      'plugins/cwa/client/url.ts': `export const join = (a: string, b: string) => a + b\n`,
      'plugins/cwa/client/index.ts': `import { join } from './url.js'\n${extra}export const url = join('a', 'b')\n`,
    })
    expect(cruise(client(''), ['plugins'])).toEqual([])
    expect(cruise(client(`import { segment } from '../core/naming.js'\nsegment('x')\n`), ['plugins'])).toEqual([
      'client-alone',
    ])
    expect(cruise(client(`import { readFileSync } from 'node:fs'\nreadFileSync\n`), ['plugins'])).toEqual([
      'client-alone',
    ])
  })

  it('keeps the Next.js kit (payload-cwa/next) free of Payload and of the rest of the library', () => {
    const kit = (extra: string): Record<string, string> => ({
      'plugins/cwa/core/naming.ts': `export const segment = (name: string) => name.toLowerCase()\n`,
      'plugins/cwa/client/url.ts': `export const join = (a: string, b: string) => a + b\n`,
      'plugins/cwa/nextKit/index.ts': `import { join } from '../client/url.js'\n${extra}export const url = join('a', 'b')\n`,
    })
    expect(cruise(kit(''), ['plugins'])).toEqual([])
    expect(cruise(kit(`import { segment } from '../core/naming.js'\nsegment('x')\n`), ['plugins'])).toEqual([
      'next-kit-alone',
    ])
  })

  it('refuses a cycle in the site through a lazy import of the config', () => {
    expect(cruise(site(true), ['src', 'payload.config.ts'])).toEqual(['no-circular-in-site'])
    expect(cruise(site(false), ['src', 'payload.config.ts'])).toEqual([])
  })
})

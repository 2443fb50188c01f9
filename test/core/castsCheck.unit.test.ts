/**
 * Issue 28, type escapes may only become fewer, and each says why: `npm run check:casts` (CI) counts `as never`
 * and `as unknown as` in the library and fails when a change adds one beyond scripts/casts-baseline.json, or
 * when one lacks its `// cast: <reason>` on its line or the line above.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

function check(files: Record<string, string>, baseline: Record<string, number>): { code: number; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'cwa-casts-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  const baselineFile = path.join(dir, 'baseline.json')
  writeFileSync(baselineFile, JSON.stringify(baseline))
  try {
    const output = execFileSync(process.execPath, ['scripts/check-casts.mjs'], {
      env: { ...process.env, CASTS_LIBRARY: dir, CASTS_BASELINE: baselineFile },
      encoding: 'utf8',
      stdio: 'pipe',
    })
    return { code: 0, output }
  } catch (error) {
    const failed = error as { status: number; stderr: string }
    return { code: failed.status, output: failed.stderr }
  }
}

describe('check:casts', () => {
  it('fails when a change adds a cast beyond the baseline, naming the count and the file to lower', () => {
    const files = {
      'a.ts': 'const x = y as never // cast: a reason\n// cast: another reason\nconst z = w as unknown as string\n',
    }
    expect(check(files, { 'as never': 1, 'as unknown as': 1 }).code).toBe(0)
    const grown = check(
      { ...files, 'b.ts': 'f(q as never) // cast: a reason\n' },
      { 'as never': 1, 'as unknown as': 1 },
    )
    expect(grown.code).toBe(1)
    expect(grown.output).toContain('2 "as never" in plugins/cwa, 1 allowed')
  })

  it('fails on a cast without its reason on its line or the line above, naming the file and line', () => {
    const files = { 'a.ts': '// cast: a reason\nconst x = y as never\n\nconst z = w as never\nf(v as never) // why\n' }
    const result = check(files, { 'as never': 3, 'as unknown as': 0 })
    expect(result.code).toBe(1)
    expect(result.output).toContain('a.ts:4: "as never" without a "// cast: <reason>"')
    expect(result.output).toContain('a.ts:5: "as never" without')
    expect(result.output).not.toContain('a.ts:2:')
  })

  it('the library is within its baseline', () => {
    expect(execFileSync(process.execPath, ['scripts/check-casts.mjs'], { encoding: 'utf8' })).toMatch(/none added/)
  })
})

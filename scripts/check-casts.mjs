#!/usr/bin/env node
/**
 * `npm run check:casts` (CI): the library's type escapes (`as never`,
 * `as unknown as`) may only become fewer, and each says why it is there.
 * Each one hides what the compiler would otherwise check:
 * - the counts are kept in scripts/casts-baseline.json, and a change that
 *   adds one fails here (give the code a type instead, or, when Payload's
 *   types leave no other way, lower another). A change that removes some
 *   lowers the baseline (`npm run check:casts -- --update`);
 * - every one carries its reason, `// cast: <why the compiler cannot know>`,
 *   at the end of its line or on the line just above it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '..')
// The folder and the baseline are the library's; a test points them elsewhere.
const LIBRARY = process.env.CASTS_LIBRARY ?? path.join(ROOT, 'plugins', 'cwa')
const BASELINE = process.env.CASTS_BASELINE ?? path.join(ROOT, 'scripts', 'casts-baseline.json')
const PATTERNS = { 'as never': /\bas never\b/g, 'as unknown as': /\bas unknown as\b/g }

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(full)
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full
  }
}

const REASON = /\/\/ cast: \S/
const counts = Object.fromEntries(Object.keys(PATTERNS).map((name) => [name, 0]))
const unexplained = []
for (const file of sources(LIBRARY)) {
  const lines = readFileSync(file, 'utf8').split('\n')
  lines.forEach((line, index) => {
    for (const [name, pattern] of Object.entries(PATTERNS)) {
      const found = line.match(pattern)?.length ?? 0
      counts[name] += found
      if (found > 0 && !REASON.test(line) && !REASON.test(lines[index - 1] ?? ''))
        unexplained.push(`${path.relative(LIBRARY, file)}:${index + 1}: "${name}" without a "// cast: <reason>"`)
    }
  })
}

if (process.argv.includes('--update')) {
  writeFileSync(BASELINE, `${JSON.stringify(counts, null, 2)}\n`)
  console.log(`casts baseline written: ${JSON.stringify(counts)}`)
  process.exit(0)
}
const baseline = JSON.parse(readFileSync(BASELINE, 'utf8'))
let failed = false
for (const [name, count] of Object.entries(counts)) {
  const allowed = baseline[name] ?? 0
  if (count > allowed) {
    failed = true
    console.error(`check:casts: ${count} "${name}" in plugins/cwa, ${allowed} allowed (scripts/casts-baseline.json)`)
  } else if (count < allowed) {
    console.log(`check:casts: ${count} "${name}", fewer than the baseline's ${allowed}: lower it with --update`)
  }
}
if (unexplained.length > 0) {
  failed = true
  console.error(`check:casts: every cast says why, on its line or the line above:\n${unexplained.join('\n')}`)
}
if (failed) process.exit(1)
console.log(
  `check:casts: ${Object.entries(counts)
    .map(([n, c]) => `${c} "${n}"`)
    .join(', ')}, none added, each with its reason`,
)

/**
 * Run once per test run (jest's global setup): finds every module the test
 * files import that belongs in the worker's own realm (Payload, the
 * package, the site, the shared test helpers), imports each natively once
 * to learn its export names, and writes for each a small shim module
 * (test/support/outerRealm/resolver.cjs hands jest the shim instead of the
 * module). Prints nothing but errors.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { isOuterPath, isOuterPackage, SHIM_DIR, type Manifest } from './policy'

const root = process.cwd()
const testDir = path.join(root, 'test')

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sourceFiles(full))
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full)
  }
  return out
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]/gm
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

function resolveRelative(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec)
  const tries = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.mts`,
    `${base}.mjs`,
    `${base}.js`,
    path.join(base, 'index.ts'),
  ]
  if (/\.js$/.test(base)) tries.push(base.replace(/\.js$/, '.ts'))
  return tries.find((p) => existsSync(p) && statSync(p).isFile()) ?? null
}

const paths = new Set<string>()
const packages = new Set<string>()
// A file with jest's fake timers drives the timers of what it imports, which must then be the file's own copy.
const faked = new Set<string>()
for (const file of sourceFiles(testDir)) {
  if (isOuterPath(root, file)) continue // loaded natively: its own imports need no shim
  const text = readFileSync(file, 'utf8')
  const fakeTimers = text.includes('useFakeTimers')
  for (const regex of [IMPORT, DYNAMIC]) {
    for (const match of text.matchAll(regex)) {
      const spec = match[1]!
      if (spec.startsWith('.')) {
        const resolved = resolveRelative(file, spec)
        if (resolved && fakeTimers) faked.add(resolved)
        else if (resolved && isOuterPath(root, resolved)) paths.add(resolved)
      } else if (!spec.startsWith('node:') && isOuterPackage(spec)) packages.add(spec)
    }
  }
}
for (const file of faked) paths.delete(file)

const dir = path.join(root, SHIM_DIR)
mkdirSync(dir, { recursive: true })
const manifest: Manifest = { paths: {}, packages: {} }
const IDENT = /^[A-Za-z_$][\w$]*$/

async function shimFor(url: string): Promise<string> {
  const names = Object.keys(await import(url))
  const lines = [`const m = await globalThis.__cwaOuterImport(${JSON.stringify(url)})`]
  if (names.includes('default')) lines.push('export default m.default')
  // Through local aliases: an export may be named with a word no binding can have (express's `static`).
  const named = names.filter((n) => n !== 'default' && IDENT.test(n))
  named.forEach((name, i) => lines.push(`const e${i} = m[${JSON.stringify(name)}]`))
  if (named.length) lines.push(`export { ${named.map((name, i) => `e${i} as ${name}`).join(', ')} }`)
  const text = `${lines.join('\n')}\n`
  const file = path.join(dir, `${createHash('sha1').update(url).digest('hex').slice(0, 16)}.mjs`)
  writeFileSync(file, text)
  return file
}

for (const file of paths) manifest.paths[file] = await shimFor(pathToFileURL(file).href)
for (const spec of packages) {
  try {
    manifest.packages[spec] = await shimFor(spec)
  } catch {
    // Not importable natively (types only, or a condition only jest knows): jest loads it itself.
  }
}
writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest))
process.exit(0)

#!/usr/bin/env node
/**
 * Builds the package: TypeScript sources to dist/, as ES modules (esbuild, file by file: about a second) and their
 * .d.ts (tsc, which type-checks the package on the way: 20-50 s, incremental).
 *
 *   node scripts/build.mjs            both, when a source is newer than the last build (a no-op takes ~0.1 s)
 *   node scripts/build.mjs --js       the modules alone (npm start, npm test: what runs; the types wait for tsc)
 *   node scripts/build.mjs --clean    empty dist/ first, then both (npm pack: no file of a deleted source survives)
 *
 * Several processes may ask at once (npm test's workers, npm start beside a test run): a lock directory
 * (mkdir is atomic) lets one build while the others wait, then find the build done.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(packageDir, 'dist')
// Not tsc's own .tsbuildinfo: tsc writes that one even when it fails.
const typesStamp = path.join(dist, '.types-built')
const jsStamp = path.join(dist, '.js-built')
const lock = path.join(packageDir, '.build.lock')
const clean = process.argv.includes('--clean')
const jsOnly = process.argv.includes('--js') && !clean

/** The package's TypeScript sources (and tsc's config), with their modification times. */
function sources(dir = packageDir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (
      entry.name === 'dist' ||
      entry.name === 'node_modules' ||
      entry.name === 'scripts' ||
      entry.name.startsWith('.')
    )
      continue
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) sources(file, found)
    else if ((/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) || entry.name === 'tsconfig.build.json')
      found.push({ file, mtime: statSync(file).mtimeMs })
  }
  return found
}

const newer = (stamp) => !existsSync(stamp) || sources().some(({ mtime }) => mtime > statSync(stamp).mtimeMs)
const stale = () => clean || newer(jsStamp) || (!jsOnly && newer(typesStamp))

/** A stamp's time set to the moment the build started: a source saved during the build is seen as newer next time. */
function touch(stamp, when) {
  writeFileSync(stamp, '', { flag: 'a' })
  utimesSync(stamp, when, when)
}

async function buildModules(started) {
  const { build } = await import('esbuild')
  const entryPoints = sources()
    .map(({ file }) => file)
    .filter((file) => file.endsWith('.ts') || file.endsWith('.tsx'))
  // Transpile only (isolatedModules): the relative imports already name their .js files; directives such as
  // 'use client' stay at the top of each module, as Payload's import map and Next.js need them.
  await build({
    entryPoints,
    outdir: dist,
    outbase: packageDir,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    logLevel: 'warning',
  })
  touch(jsStamp, started)
}

/**
 * Swagger UI's files for {prefix}/docs (hydra/docs/html.ts), copied from swagger-ui-dist (a development dependency
 * only: it depends on @scarf/scarf, an install-time analytics script an app would otherwise run) into dist/swagger-ui/,
 * with the licence (Apache-2.0) and notices that go with them.
 */
const SWAGGER_UI_FILES = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.LICENSE.txt',
  'favicon-32x32.png',
  'favicon-16x16.png',
  'LICENSE',
  'NOTICE',
]

function copySwaggerUi() {
  const from = path.dirname(
    createRequire(path.join(packageDir, 'package.json')).resolve('swagger-ui-dist/package.json'),
  )
  const to = path.join(dist, 'swagger-ui')
  mkdirSync(to, { recursive: true })
  for (const file of SWAGGER_UI_FILES) copyFileSync(path.join(from, file), path.join(to, file))
}

/**
 * CWA_BUILD_TYPES_FROM=<a dist/ of the same sources whose types are current> (the package tests' npm pack, after
 * CI's type check built them): the declarations are copied from there, one per source (a deleted source's stays
 * behind), instead of a second tsc run of the same sources. False when one is missing: tsc builds them then.
 */
function copyTypes(from) {
  const wanted = sources()
    .map(({ file }) => path.relative(packageDir, file))
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => file.replace(/\.tsx?$/, '.d.ts'))
  if (!wanted.every((file) => existsSync(path.join(from, file)))) return false
  for (const file of wanted) {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true })
    copyFileSync(path.join(from, file), path.join(dist, file))
  }
  return true
}

function buildTypes(started) {
  const from = process.env.CWA_BUILD_TYPES_FROM
  if (from && copyTypes(from)) return touch(typesStamp, started)
  const tsc = createRequire(path.join(packageDir, 'package.json')).resolve('typescript/bin/tsc')
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(packageDir, 'tsconfig.build.json'), '--emitDeclarationOnly'], {
      cwd: packageDir,
      stdio: 'inherit',
    })
  } catch {
    console.error('payload-cwa: the type build failed (tsc errors above)')
    process.exit(1)
  }
  touch(typesStamp, started)
}

async function acquire() {
  const started = Date.now()
  for (;;) {
    try {
      mkdirSync(lock)
      return
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
      // A lock left by a killed build is stale after 5 minutes (a full build takes 15-40 s).
      if (Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true })
      if (Date.now() - started > 600_000) throw new Error(`payload-cwa: waited 10 minutes for ${lock}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}

if (stale()) {
  await acquire()
  try {
    if (stale()) {
      if (clean) rmSync(dist, { recursive: true, force: true })
      mkdirSync(dist, { recursive: true })
      const started = new Date()
      if (newer(jsStamp)) await buildModules(started)
      if (!existsSync(path.join(dist, 'swagger-ui', 'LICENSE'))) copySwaggerUi()
      if (!jsOnly && newer(typesStamp)) buildTypes(started)
      console.error(
        `payload-cwa: built dist/${jsOnly ? ' (modules)' : ''} in ${((Date.now() - started.getTime()) / 1000).toFixed(1)} s`,
      )
    }
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/**
 * Which modules the test files share within a jest worker (loaded once,
 * natively, in the worker's own realm) instead of loading them again in
 * every file's sandbox: the heavy ones (Payload, Lexical, the package, the
 * site) and the helpers that start servers. Used by manifest.ts; resolver.cjs
 * reads its result.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

export const SHIM_DIR = '.jest-outer'

export interface Manifest {
  /** Absolute path of a local module → its shim. */
  paths: Record<string, string>
  /** A package specifier → its shim. */
  packages: Record<string, string>
}

/** jest's own packages stay in the sandbox (describe, expect and the mocks belong to the file). */
const SANDBOX_PACKAGES = /^(@jest\/|jest($|-)|expect($|\/)|@swc\/)/

/** The file's own setup (jest's setupFilesAfterEnv), run in its sandbox. */
const SANDBOX_HELPERS = new Set(['preloadEditor.ts'])

/** A helper that uses jest's own API (beforeAll, expect...) belongs to the file that calls it. */
const usesJest = (file: string) => readFileSync(file, 'utf8').includes('@jest/globals')

export function isOuterPackage(spec: string): boolean {
  return !SANDBOX_PACKAGES.test(spec)
}

export function isOuterPath(root: string, file: string): boolean {
  const rel = path.relative(root, file).split(path.sep).join('/')
  if (rel === 'payload.config.ts') return true
  if (/^(src|collections|plugins\/cwa\/dist)\//.test(rel)) return true
  if (rel.startsWith('test/support/outerRealm/')) return false
  if (/^test\/support\/[^/]+\.ts$/.test(rel)) return !SANDBOX_HELPERS.has(path.basename(rel)) && !usesJest(file)
  return false
}

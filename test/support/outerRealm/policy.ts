/**
 * Which modules the test files share within a jest worker (loaded once,
 * natively, in the worker's own realm) instead of loading them again in
 * every file's sandbox: the heavy ones (Payload, Lexical, the package, the
 * site) and the helpers that start servers. Used by manifest.ts; resolver.cjs
 * reads its result.
 */
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

/** Helpers that register jest hooks (beforeAll...) and so belong to the file. */
const SANDBOX_HELPERS = new Set(['mail.ts', 'preloadEditor.ts'])

export function isOuterPackage(spec: string): boolean {
  return !SANDBOX_PACKAGES.test(spec)
}

export function isOuterPath(root: string, file: string): boolean {
  const rel = path.relative(root, file).split(path.sep).join('/')
  if (rel === 'payload.config.ts') return true
  if (/^(src|collections|plugins\/cwa\/dist)\//.test(rel)) return true
  if (rel.startsWith('test/support/outerRealm/')) return false
  if (/^test\/support\/[^/]+\.ts$/.test(rel)) return !SANDBOX_HELPERS.has(path.basename(rel))
  return false
}

/* eslint-disable @typescript-eslint/no-require-imports -- jest loads its resolver with require(): CommonJS */
/**
 * jest's resolver: a module listed in the outer-realm manifest
 * (test/support/outerRealm/manifest.ts) resolves to its shim, which hands
 * the file the worker's one native copy; everything else resolves as usual.
 */
const { readFileSync } = require('node:fs')
const path = require('node:path')

let manifest = null
function load(rootDir) {
  if (manifest) return manifest
  try {
    manifest = JSON.parse(readFileSync(path.join(rootDir, '.jest-outer', 'manifest.json'), 'utf8'))
  } catch {
    manifest = { paths: {}, packages: {} }
  }
  return manifest
}

module.exports = (request, options) => {
  const m = load(options.rootDir)
  const byPackage = m.packages[request]
  if (byPackage) return byPackage
  const resolved = options.defaultResolver(request, options)
  return m.paths[resolved] ?? resolved
}

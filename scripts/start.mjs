#!/usr/bin/env node
/**
 * npm start: bundles the server's own TypeScript (src/, plugins/,
 * collections/, payload.config.ts, migrations/) with esbuild into
 * .data/build/server.mjs (about a second; packages stay external) and runs
 * it with plain Node. Running through a TypeScript loader instead can lose a
 * module import on Node 20 (the process then exits 13 or 0 doing nothing).
 *
 * The server runs in this very process (imported, not spawned), and
 * package.json's `exec node ...` makes it npm's own child: the SIGTERM or
 * SIGINT npm forwards reaches it (src/server/start.ts stops cleanly).
 */
import { build, stop as stopEsbuild } from 'esbuild'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildPlugin } from './build-plugin.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// Inside the project, so that the bundle resolves its packages from node_modules.
const outfile = path.join(root, 'node_modules', '.cache', 'cwa', `server-${process.pid}.mjs`)
mkdirSync(path.dirname(outfile), { recursive: true })
const entry = process.argv[2] ?? 'src/server/start.ts'

// The site imports the plugin as a package (plugins/cwa/dist): rebuilt first when one of its sources changed.
buildPlugin()
await build({
  absWorkingDir: root,
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
})
// esbuild's service process is not needed any more: it must not outlive the server (or be left behind by it).
await stopEsbuild()
try {
  await import(pathToFileURL(outfile).href)
} finally {
  // Loaded: the bundle (its source map inline) is no longer needed on disk.
  rmSync(outfile, { force: true })
}

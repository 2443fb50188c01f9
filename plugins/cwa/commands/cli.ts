/**
 * `npx payload-cwa <command> [arguments]` (bin/payload-cwa.js loads this module): the operator commands without Payload's TypeScript loader.
 *
 * `npx payload cwa:<name>` runs the same commands, but Payload's CLI loads every module of the app through tsx's
 * loader hooks (about 8 s of CPU before a command starts, most of it the hooks' per-module round trips). This
 * runner bundles the app's TypeScript config alone with esbuild (its packages stay external, loaded by plain Node)
 * into a file beside it, so that `import.meta.url` in the config still names its folder, imports it and runs the
 * command module: the same `script(config)` Payload's CLI would call. The config is handed as a promise that
 * loads it when the command first awaits it, after reading its arguments: a refused argument answers before any
 * of the app (or Payload) is loaded.
 */
import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { SanitizedConfig } from 'payload'
import { findConfig, loadEnv } from 'payload/node'
import { builtInCommands } from './list.js'

/**
 * The bundle goes on every exit: once imported (below), and at the process's end whatever ends it (a command's
 * process.exit, a stop signal, a module whose top-level await never settles: Node then exits with 13 and runs no
 * `finally`).
 */
let bundle: string | undefined
const removeBundle = () => {
  if (bundle) rmSync(bundle, { force: true })
  bundle = undefined
}
process.once('exit', (code) => {
  removeBundle()
  // Node 20 passes 0 to this event on an unsettled await and sets process.exitCode to 13.
  if ((process.exitCode ?? code) === 13)
    console.error(
      `payload-cwa: ${process.argv[2]} ended before finishing (exit 13: Node found a module's top-level await still ` +
        'pending with nothing left to run). Node 20 does this with packages whose entry picks its build by a ' +
        'top-level `await import()` (Lexical, under the default `node` condition); the runner sets ' +
        '`--conditions=production`, which avoids it for Lexical: look for a top-level await in your config or its imports.',
    )
})
// A command of its own on the signal (cwa:jobs:work drains) decides the end; otherwise the signal's default ends it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => {
    removeBundle()
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
  })

async function loadConfig(file: string): Promise<SanitizedConfig> {
  if (/\.(m?js)$/.test(file)) return (await import(pathToFileURL(file).href)).default
  const outfile = path.join(path.dirname(file), `.payload-cwa-config-${process.pid}.mjs`)
  bundle = outfile
  try {
    await build({
      entryPoints: [file],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'inline',
      logLevel: 'error',
    })
    return (await import(pathToFileURL(outfile).href)).default
  } finally {
    removeBundle()
  }
}

/** The config, bundled and imported when first awaited (once). */
function lazyConfig(file: string): PromiseLike<SanitizedConfig> {
  let loading: Promise<SanitizedConfig> | undefined
  return {
    then: (resolve, reject) => (loading ??= loadConfig(file)).then(resolve, reject),
  }
}

const commands = await builtInCommands()
const key = (process.argv[2] ?? '').toLowerCase()
const command = commands.find((entry) => entry.key === key)
if (!command) {
  console.error(
    `${key ? `Unknown command ${key}. ` : ''}Usage: npx payload-cwa <command> [arguments], one of:\n${commands.map((entry) => `  ${entry.key}`).join('\n')}`,
  )
  process.exit(1)
}
loadEnv()
// As Payload's CLI: no admin hot reload in a command.
process.env.DISABLE_PAYLOAD_HMR = 'true'
const config = lazyConfig(findConfig())
await (await command.load()).script(config)

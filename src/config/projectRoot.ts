import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The project root (the folder holding payload.config.ts), found upward from
 * a module's URL: the same answer whether the code runs from its TypeScript
 * source or from the bundle `npm start` builds into .data/build.
 */
export function projectRoot(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl))
  for (;;) {
    if (existsSync(path.join(dir, 'payload.config.ts'))) return dir
    const parent = path.dirname(dir)
    if (parent === dir) return process.cwd()
    dir = parent
  }
}

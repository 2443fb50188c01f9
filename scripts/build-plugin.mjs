/**
 * Builds the workspace package payload-cwa (plugins/cwa, to its dist/) when one of its sources is newer than the
 * last build: npm start, npm test and npm run bench call it, so an edit to the library never needs a manual step
 * (`npm install` builds it once too, as the root's postinstall).
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export function buildPlugin({ types = false } = {}) {
  execFileSync(
    process.execPath,
    [path.join(root, 'plugins', 'cwa', 'scripts', 'build.mjs'), ...(types ? [] : ['--js'])],
    { cwd: root, stdio: 'inherit' },
  )
}

/**
 * One `next build` of the site (admin panel and the JSON-LD route handler) per
 * test run, shared by every test file that serves it: the admin panel's
 * browser tests, the site's admin-panel test and the Next.js route-handler test.
 */
import { mkdirSync, rmdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { adminBuildExists, adminSourcesNewerThanBuild } from '../../src/server/admin'
import { waitFor } from './wait'

const root = process.cwd() // jest's rootDir: the project

/** A lock directory (mkdir is atomic): one `next build` at a time across jest workers. */
const BUILD_LOCK = path.join(root, '.next-build.lock')

/**
 * Makes sure `.next/` holds a build of the current sources: builds it when it
 * is missing or older than a file it bundles. Test files run in parallel
 * workers; the first one builds, the others wait for it.
 */
export async function ensureAdminBuild(): Promise<void> {
  await waitFor(
    () => {
      try {
        mkdirSync(BUILD_LOCK)
        return true
      } catch {
        // A lock left by a killed run is stale after 15 minutes (a build takes 1-3).
        if (Date.now() - statSync(BUILD_LOCK).mtimeMs > 15 * 60_000) rmdirSync(BUILD_LOCK)
        return false
      }
    },
    { timeout: 900_000, interval: 500, message: 'the admin build lock' },
  )
  try {
    if (adminBuildExists(root) && !adminSourcesNewerThanBuild(root)?.length) return
    execFileSync(
      process.execPath,
      [createRequire(path.join(root, 'package.json')).resolve('next/dist/bin/next'), 'build'],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      },
    )
  } finally {
    rmdirSync(BUILD_LOCK)
  }
}

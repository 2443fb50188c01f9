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
import { asSharedTime } from './sharedTime'
import { waitFor } from './wait'

const root = process.cwd() // jest's rootDir: the project

/** A lock directory (mkdir is atomic): one `next build` at a time across jest workers. */
const BUILD_LOCK = path.join(root, '.next-build.lock')

/**
 * One `next build` at a time on this machine (the site's, and the fresh app's in test/package/freshApp.test.ts):
 * runs `work` holding a lock directory (mkdir is atomic); test files run in parallel workers. The wait for the
 * lock is the run's shared time (sharedTime.ts), not the file's.
 */
export async function withNextBuildLock<T>(work: () => Promise<T>): Promise<T> {
  await asSharedTime(() =>
    waitFor(
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
      { timeout: 900_000, interval: 500, message: 'the next build lock' },
    ),
  )
  try {
    return await work()
  } finally {
    rmdirSync(BUILD_LOCK)
  }
}

/**
 * Makes sure `.next/` holds a build of the current sources: builds it when it is missing or older than a file it
 * bundles (npm install builds it: then nothing is waited for). The first file that needs it builds, the others
 * wait; the time either spends is the run's shared time (sharedTime.ts), not the file's.
 */
export async function ensureAdminBuild(): Promise<void> {
  // Built by npm install (scripts/build-site.mjs) and current: no lock to wait for (the fresh app's own build holds
  // it for a minute, and this file would idle behind it for nothing).
  if (adminBuildExists(root) && !adminSourcesNewerThanBuild(root)?.length) return
  return withNextBuildLock(() =>
    asSharedTime(async () => {
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
    }),
  )
}

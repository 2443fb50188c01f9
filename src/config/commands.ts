import { spawnSync } from 'node:child_process'
import path from 'node:path'
import type { CommandsOptions } from 'payload-cwa'
import { migrateDatabase } from '../server/migrate'
import { underStartupLock } from '../server/startupLock'
import { ensureDatabase } from '../server/database'

/**
 * How the plugin's operator commands (`npx payload cwa:<name>`) start on the reference site: with the same
 * environment as `npm start`, so they run with or without the site running: the embedded PostgreSQL when
 * DATABASE_URL is unset (shared with a running site), the committed migrations applied once Payload is up.
 */
export const siteCommands: CommandsOptions = {
  environment: async () => {
    const database = await ensureDatabase(process.env, { info: () => {}, error: (message) => console.error(message) })
    // Under the start-up lock: a command run while instances start (a deploy) migrates once with them.
    return {
      ready: (payload) => underStartupLock(payload, () => migrateDatabase(payload)),
      close: () => database.stop(),
    }
  },
  // `cwa:make:* --migration`: the site writes its migrations with `npm run migrate:create` (its own database, its index).
  createMigration: (name, cwd) =>
    spawnSync(
      process.execPath,
      ['--enable-source-maps', path.join(cwd, 'scripts', 'start.mjs'), 'scripts/create-migration.ts', name],
      { cwd, stdio: 'inherit' },
    ).status ?? 1,
}

/**
 * npm run migrate:create -- <name> [--timestamp YYYYMMDD_HHMMSS]
 * npm run migrate:create -- --snapshot
 *
 * Writes a migration of the reference site's schema with Payload's own
 * generator (the difference between the latest `.json` snapshot in
 * migrations/ and the current config), then renames it to the given
 * timestamp (each engineer or branch uses its own range, so merges never
 * collide; default: now) and rewrites migrations/index.ts in timestamp
 * order. Uses DATABASE_URL, or the embedded database as `npm start` does
 * (the generator reads no data; it only needs Payload started).
 *
 * Hand-written SQL (indexes or tables Payload does not declare) goes in a
 * migration of its own; when such a migration changes what Payload declares,
 * give it a snapshot: `--snapshot` writes the current config's schema as the
 * `.json` snapshot of the latest migration (see docs/operations.md,
 * "Migrations"), so the next generated migration starts from there.
 */
import { readdirSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { getPayload } from 'payload'
import { closePayload } from 'payload-cwa'
import { ensureDatabase } from '../src/server/database'
import { projectRoot } from '../src/config/projectRoot'

const root = projectRoot(import.meta.url)
const dir = path.join(root, 'migrations')
// Run through scripts/start.mjs, whose own argument is this file.
const args = process.argv.slice(process.argv[2]?.endsWith('create-migration.ts') ? 3 : 2)
const flag = (name: string): string | undefined => {
  const index = args.indexOf(name)
  if (index < 0) return undefined
  const value = args[index + 1]
  args.splice(index, 2)
  return value
}
const timestamp = flag('--timestamp')
const snapshotOnly = args.includes('--snapshot')
const name = args[0]
if (!snapshotOnly && (!name || !/^[a-z0-9_]+$/i.test(name))) {
  console.error(
    'Usage: npm run migrate:create -- <name> [--timestamp YYYYMMDD_HHMMSS]   (name: letters, digits, _), or -- --snapshot',
  )
  process.exit(1)
}
if (timestamp !== undefined && !/^\d{8}_\d{6}$/.test(timestamp)) {
  console.error(`--timestamp must look like 20261123_171000, not "${timestamp}"`)
  process.exit(1)
}

/** migrations/index.ts: every migration file, in name (timestamp) order. */
function writeIndex(): void {
  const names = readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    .map((file) => file.slice(0, -3))
    .sort()
  const ident = (migration: string) => `migration_${migration.replace(/\W/g, '_')}`
  writeFileSync(
    path.join(dir, 'index.ts'),
    `${names.map((m) => `import * as ${ident(m)} from './${m}';`).join('\n')}\n\nexport const migrations = [\n${names
      .map((m) => `  {\n    up: ${ident(m)}.up,\n    down: ${ident(m)}.down,\n    name: '${m}',\n  },`)
      .join('\n')}\n];\n`,
  )
}

/** The schema of the current config, as Payload's generator stores it, written as the latest migration's snapshot. */
async function writeSnapshot(payload: Awaited<ReturnType<typeof getPayload>>): Promise<void> {
  const db = payload.db as unknown as {
    schema: unknown
    requireDrizzleKit(): { generateDrizzleJson(schema: unknown): Promise<unknown> }
  }
  const latest = readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    .sort()
    .pop()
  if (!latest) throw new Error('migrations/ holds no migration to give a snapshot')
  const target = path.join(dir, `${latest.slice(0, -3)}.json`)
  writeFileSync(target, JSON.stringify(await db.requireDrizzleKit().generateDrizzleJson(db.schema), null, 2))
  console.log(`migrations/${path.basename(target)} (snapshot of the current schema)`)
}

const log = { info: (m: string) => console.log(m), error: (m: string) => console.error(m) }
const database = await ensureDatabase(process.env, log)
process.env.DATABASE_URL = database.url
let code = 0
try {
  const before = new Set(readdirSync(dir))
  const config = await (await import('../payload.config')).default
  const payload = await getPayload({ config })
  if (snapshotOnly) {
    try {
      await writeSnapshot(payload)
    } finally {
      await closePayload(payload)
    }
    process.exitCode = 0
  } else
    try {
      await (
        payload.db as unknown as { createMigration(args: Record<string, unknown>): Promise<void> }
      ).createMigration({
        migrationName: name,
        payload,
        forceAcceptWarning: true,
      })
    } finally {
      await closePayload(payload)
    }
  const created = readdirSync(dir).filter((file) => !before.has(file) && file !== 'index.ts')
  for (const file of created) {
    const target = timestamp ? file.replace(/^\d{8}_\d{6}/, timestamp) : file
    if (target !== file) renameSync(path.join(dir, file), path.join(dir, target))
    console.log(`migrations/${target}`)
  }
  if (!snapshotOnly) writeIndex()
} catch (error) {
  console.error(error instanceof Error ? error.stack : String(error))
  code = 1
} finally {
  await database.stop()
}
process.exit(code)

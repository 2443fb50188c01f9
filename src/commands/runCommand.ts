import { getPayload, type Payload, type SanitizedConfig } from 'payload'
import { migrateDatabase } from '../server/bootstrap'
import { ensureDatabase } from '../server/database'
import { closePayload } from 'payload-cwa'

/**
 * Runs an operator command with the same environment as `npm start`
 * (embedded PostgreSQL when DATABASE_URL is unset, schema migrated), then
 * closes everything and exits with the command's code.
 */
export async function runCommand(config: SanitizedConfig, body: (payload: Payload) => Promise<number>): Promise<never> {
  let code = 1
  const log = { info: () => {}, error: (m: string) => console.error(m) }
  const database = await ensureDatabase(process.env, log)
  let payload: Payload | undefined
  try {
    payload = await getPayload({ config })
    await migrateDatabase(payload)
    code = await body(payload)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    code = 1
  } finally {
    if (payload) await closePayload(payload)
    await database.stop()
  }
  process.exit(code)
}

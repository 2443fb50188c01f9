import { getPayload, type Payload, type SanitizedConfig } from 'payload'
import { migrateDatabase } from '../server/bootstrap'
import { ensureDatabase } from '../server/database'
import { closePayload } from '../utils/closePayload'

/**
 * Runs an operator command with the same environment as `npm start`
 * (embedded PostgreSQL when DATABASE_URL is unset, schema migrated), then
 * closes everything and exits with the command's code.
 */
export async function runCommand(config: SanitizedConfig, body: (payload: Payload) => Promise<number>): Promise<never> {
  let code = 1
  const t = (m: string) => process.env.CWA_TRACE && console.error('TRACE', m)
  process.on('exit', (c) => t('exit ' + c))
  t('start')
  const log = { info: () => {}, error: (m: string) => console.error(m) }
  const database = await ensureDatabase(process.env, log)
  let payload: Payload | undefined
  try {
    t('db ok')
    payload = await getPayload({ config })
    t('payload ok')
    await migrateDatabase(payload)
    t('migrated')
    code = await body(payload)
    t('body ' + code)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    code = 1
  } finally {
    if (payload) await closePayload(payload)
    await database.stop()
  }
  process.exit(code)
}

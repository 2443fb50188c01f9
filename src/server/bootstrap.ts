import { getPayload, type Payload, type SanitizedConfig } from 'payload'
import { payloadKeys, schemaReady } from 'payload-cwa'
import { loadRichTextConverters } from 'payload-cwa/content'
import { migrateDatabase } from './migrate'
import { startupStep, underStartupLock } from './startupLock'

/**
 * Loads the Payload config (after DATABASE_URL is known), starts Payload and
 * brings the schema up to date with the committed migrations. Never prompts.
 * The migrations, the plugin's database setup and `setup` (the demo seed) run
 * under the start-up lock: instances starting together take turns, and each
 * after the first finds the work done.
 */
export async function startPayload({
  config,
  key = 'default',
  migrate = true,
  cron = false,
  setup,
}: {
  config?: Promise<SanitizedConfig> | SanitizedConfig
  key?: string
  /** Apply the committed migrations (off for configs that push their schema in development). */
  migrate?: boolean
  /**
   * Start Payload's jobs runner (jobs.autoRun of the config: the queued
   * orphan scans, the scheduled scan) once the schema is migrated.
   */
  cron?: boolean
  /** More start-up work that must run once per database (the demo seed), after the migrations, under the lock. */
  setup?: (payload: Payload) => Promise<unknown>
} = {}): Promise<Payload> {
  const resolved = await (config ?? (await import('../../payload.config')).default)
  const payload = await getPayload({ config: resolved, key })
  payloadKeys.set(payload, key)
  if (migrate || setup) {
    await underStartupLock(payload, async () => {
      if (migrate) {
        await startupStep('the migrations', () => migrateDatabase(payload))
        // A first start migrated after Payload's init: the plugin's database work that needs the tables runs now.
        await startupStep("the plugin's database setup", () => schemaReady(payload))
      }
      await setup?.(payload)
    })
  }
  // Rich text's converters now, not inside the first write's transaction.
  await loadRichTextConverters()
  // The same cached instance, its crons started now that the jobs table exists.
  if (cron) await getPayload({ config: resolved, key, cron: true })
  return payload
}

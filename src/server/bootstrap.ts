import { getPayload, type Payload, type SanitizedConfig } from 'payload'
import { payloadKeys } from 'payload-cwa'
import { migrations } from '../../migrations'

/**
 * Loads the Payload config (after DATABASE_URL is known), starts Payload and
 * brings the schema up to date with the committed migrations. Never prompts.
 */
export async function startPayload({
  config,
  key = 'default',
  migrate = true,
}: {
  config?: Promise<SanitizedConfig> | SanitizedConfig
  key?: string
  /** Apply the committed migrations (off for configs that push their schema in development). */
  migrate?: boolean
} = {}): Promise<Payload> {
  const resolved = await (config ?? (await import('../../payload.config')).default)
  const payload = await getPayload({ config: resolved, key })
  payloadKeys.set(payload, key)
  if (migrate) await migrateDatabase(payload)
  return payload
}

export async function migrateDatabase(payload: Payload): Promise<void> {
  await (payload.db as unknown as { migrate(args: { migrations: unknown[] }): Promise<void> }).migrate({ migrations })
}




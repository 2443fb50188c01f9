import { getPayload, type Payload } from 'payload'
import { migrations } from '../../migrations'

/**
 * Loads the Payload config (after DATABASE_URL is known), starts Payload and
 * brings the schema up to date with the committed migrations. Never prompts.
 */
export async function startPayload(): Promise<Payload> {
  const { default: config } = await import('../../payload.config')
  const payload = await getPayload({ config })
  await migrateDatabase(payload)
  return payload
}

export async function migrateDatabase(payload: Payload): Promise<void> {
  await (payload.db as unknown as { migrate(args: { migrations: unknown[] }): Promise<void> }).migrate({ migrations })
}

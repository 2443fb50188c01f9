import type { Payload } from 'payload'
import { migrations } from '../../migrations'

/**
 * Applies the committed migrations. Its own module, apart from bootstrap.ts: the commands' environment
 * (src/config/commands.ts, which payload.config.ts imports) needs it, and bootstrap.ts loads payload.config.ts,
 * so importing it from there would close a circle config → commands → bootstrap → config.
 */
export async function migrateDatabase(payload: Payload): Promise<void> {
  await (payload.db as unknown as { migrate(args: { migrations: unknown[] }): Promise<void> }).migrate({ migrations })
}

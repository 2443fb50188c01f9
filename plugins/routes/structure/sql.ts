import { sql } from '@payloadcms/db-postgres'
import { commitTransaction, initTransaction, killTransaction, type Payload, type PayloadRequest } from 'payload'

export { sql }
/** A drizzle SQL chunk (what the `sql` tag builds, or an identifier). */
export type SqlChunk = ReturnType<typeof sql> | ReturnType<typeof sql.identifier>

interface Executor {
  execute(query: ReturnType<typeof sql>): Promise<{ rows: unknown[] }>
}

/**
 * Runs raw SQL on the request's open transaction when there is one (so that
 * it sees the request's own uncommitted writes), else on the pool.
 */
export async function runSql<T>(payload: Payload, req: PayloadRequest | undefined, query: ReturnType<typeof sql>): Promise<T[]> {
  const adapter = payload.db as unknown as { sessions?: Record<string, { db: Executor }>; drizzle: Executor }
  const transactionID = req ? await req.transactionID : undefined
  const session = transactionID != null ? adapter.sessions?.[String(transactionID)]?.db : undefined
  return (await (session ?? adapter.drizzle).execute(query)).rows as T[]
}

/**
 * Runs `fn` in one transaction on `req` (joining the request's transaction
 * when one is already open). Every Local API call inside must pass `req`.
 */
export async function inTransaction<T>(req: PayloadRequest, fn: () => Promise<T>): Promise<T> {
  const started = await initTransaction(req)
  try {
    const result = await fn()
    if (started) await commitTransaction(req)
    return result
  } catch (error) {
    if (started) await killTransaction(req)
    throw error
  }
}

import type { Payload } from 'payload'
import type { Pool } from 'pg'
import { StartError } from './database'
import { innermostReason } from './innermostReason'

/** The advisory lock's key: one per database, whatever the instance. */
const KEY = 'cwa:site:startup'

/**
 * Start-up work that must run once however many instances start together on one database (the migrations, the
 * plugin's own SQL, the demo seed): under a PostgreSQL session advisory lock, held on a connection of its own for
 * the whole work. The next instance waits its turn (and says so), then finds the work done. An instance that dies
 * meanwhile ends its session, which frees the lock.
 */
export async function underStartupLock<T>(payload: Payload, work: () => Promise<T>): Promise<T> {
  const pool = (payload.db as unknown as { pool?: Pool }).pool
  if (!pool) return work()
  const client = await pool.connect()
  try {
    const { rows } = await client.query<{ got: boolean }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS got',
      [KEY],
    )
    if (!rows[0]?.got) {
      payload.logger.info(
        'Another instance is starting on this database (migrations, database setup, seed): waiting for it to finish',
      )
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [KEY])
      payload.logger.info('The other instance finished its start-up work: checking what is left to do')
    }
    return await work()
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [KEY]).catch(() => undefined)
    client.release()
  }
}

/** One named step of the start-up: its failure says which step and why, in one line, and stops the start. */
export async function startupStep<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof StartError) throw error
    // A failed migration's message starts with its whole SQL: the innermost cause says what happened.
    throw new StartError(`Start-up failed at ${name}: ${innermostReason(error)}`)
  }
}

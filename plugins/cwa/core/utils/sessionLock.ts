import type { Pool, PoolClient } from 'pg'

/**
 * Takes a PostgreSQL session advisory lock on a connection of its own,
 * without waiting: the connection that holds it (kept out of the pool until
 * released), or null when another session holds it. The lock lasts as long
 * as that connection: a process that dies frees it.
 */
export async function trySessionLock(pool: Pool, key: string): Promise<PoolClient | null> {
  const client = await pool.connect()
  let got = false
  try {
    const { rows } = await client.query<{ got: boolean }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS got',
      [key],
    )
    got = rows[0]?.got === true
  } finally {
    if (!got) client.release()
  }
  return got ? client : null
}

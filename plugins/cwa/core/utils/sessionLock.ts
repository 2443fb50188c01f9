/**
 * What a session lock needs of a node-postgres pool: any `pg` Pool fits (the
 * adapter's, typed by its own copy of the `pg` typings, as well as another).
 */
export interface LockPool {
  connect(): Promise<LockConnection>
}

/** The connection that holds a session lock: queried, watched for errors, released back to (or out of) its pool. */
export interface LockConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>
  on(event: 'error', listener: (err: Error) => void): unknown
  release(destroy?: boolean): void
}

/**
 * Takes a PostgreSQL session advisory lock on a connection of its own,
 * without waiting: the connection that holds it (kept out of the pool until
 * released), or null when another session holds it. The lock lasts as long
 * as that connection: a process that dies frees it.
 */
export async function trySessionLock(pool: LockPool, key: string): Promise<LockConnection | null> {
  const client = await pool.connect()
  let got = false
  try {
    const { rows } = await client.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS got', [key])
    got = rows[0]?.got === true
  } finally {
    if (!got) client.release()
  }
  return got ? client : null
}

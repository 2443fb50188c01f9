import { databaseActivity, withAdminClient } from './database'

/** How long a test server's Payload may take to shut down before its database sessions are reported and ended. */
export const SHUTDOWN_GRACE_MS = 15_000

/**
 * Runs `shutDown` (which waits for every pool client to come back). Should a
 * query still run after the grace period (two CI runs saw a test server's
 * shutdown outlast its 60 s hook), the sessions of the database are reported
 * on stderr and ended (the database is dropped next anyway): the file
 * finishes, and the report says what was stuck. Resolves with whether the
 * sessions had to be ended.
 */
export async function shutDownWithin(
  database: string,
  shutDown: () => Promise<void>,
  graceMs = SHUTDOWN_GRACE_MS,
): Promise<'clean' | 'forced'> {
  const done = shutDown()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)))
  const outcome = await Promise.race([done.then(() => 'done' as const), late])
  clearTimeout(timer)
  if (outcome === 'done') return 'clean'
  const activity = await databaseActivity(database).catch((error: unknown) => [{ error: String(error) }])
  process.stderr.write(
    `Test server shutdown still waiting after ${graceMs} ms; sessions of ${database}:\n${JSON.stringify(activity, null, 2)}\n`,
  )
  await withAdminClient((c) =>
    c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
      database,
    ]),
  )
  await done
  return 'forced'
}

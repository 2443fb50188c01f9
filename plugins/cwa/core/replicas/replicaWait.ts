import type { Payload } from 'payload'
import { sql } from '../utils/sql.js'
import { replicatedDatabase } from './readRouting.js'

/**
 * A committed write is acknowledged only once every read replica has
 * applied it (or `replicaWaitMs` has passed): the caller's next read, on
 * any instance and from anyone, sees it, and the side effects that follow
 * the commit (cache purges, hub updates) never make a cache refill from a
 * replica that has not caught up. The adapter's commit is wrapped: after
 * it, one statement reads the primary's WAL position, and each replica is
 * asked until it has replayed that far (a replica that lags beyond the wait,
 * or cannot be reached, is logged, never turned into a failed write).
 */

interface CommitAdapter {
  commitTransaction(id?: unknown): Promise<void>
  [waitMark]?: true
}

const waitMark = Symbol.for('payload-cwa.replicaWait')

/** Polls start at 1 ms and double up to this. */
const MAX_POLL_MS = 50

/** A replica that missed the wait is warned about at most this often (its lag is one incident, not one per write). */
const WARN_EVERY_MS = 30_000

const lastWarned = new WeakMap<object, number>()

function warnOnce(payload: Payload, replica: object, message: string, err?: unknown): void {
  const now = Date.now()
  if (now - (lastWarned.get(replica) ?? 0) < WARN_EVERY_MS) return
  lastWarned.set(replica, now)
  payload.logger.warn(err ? { err, msg: message } : message)
}

type Executor = { execute(query: unknown): Promise<{ rows: unknown[] }> }

async function replayedTo(replica: Executor, lsn: string): Promise<boolean> {
  // NULL on a server that is not a standby (a replica URL pointing at the primary): nothing to wait for.
  const { rows } = await replica.execute(sql`SELECT coalesce(pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn, true) AS done`)
  return (rows[0] as { done?: boolean } | undefined)?.done === true
}

/** Waits until every replica has replayed the primary's current WAL position, at most `waitMs`. */
export async function waitForReplicas(payload: Payload, waitMs: number): Promise<void> {
  const replicated = replicatedDatabase(payload)
  if (!replicated || waitMs <= 0) return
  const primary = replicated.$primary as Executor
  const { rows } = await primary.execute(sql`SELECT pg_current_wal_lsn()::text AS lsn`)
  const lsn = (rows[0] as { lsn: string }).lsn
  const deadline = performance.now() + waitMs
  await Promise.all(
    replicated.$replicas.map(async (replica, index) => {
      try {
        for (let pause = 1; !(await replayedTo(replica, lsn)); pause = Math.min(pause * 2, MAX_POLL_MS)) {
          if (performance.now() + pause > deadline) {
            warnOnce(
              payload,
              replica,
              `Read replica ${index + 1} has not applied a committed write within ${waitMs} ms (replica lag): ` +
                'anonymous reads it serves may miss recent writes until it catches up',
            )
            return
          }
          await new Promise((resolve) => setTimeout(resolve, pause))
        }
      } catch (err) {
        warnOnce(
          payload,
          replica,
          `Read replica ${index + 1} could not be asked whether it applied a committed write; the write is saved`,
          err,
        )
      }
    }),
  )
}

/** Wraps the adapter's commit so that it returns once the replicas have the write. Idempotent; install before afterCommit. */
export function installReplicaWait(payload: Payload, waitMs: number): void {
  const db: CommitAdapter = payload.db
  if (db[waitMark] || waitMs <= 0 || !replicatedDatabase(payload)) return
  db[waitMark] = true
  const commit = db.commitTransaction
  db.commitTransaction = async function (this: CommitAdapter, id?: unknown) {
    await commit.call(this, id)
    await waitForReplicas(payload, waitMs)
  }
}

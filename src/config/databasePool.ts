import pg from 'pg'
import type { PoolConfig } from 'pg'

/**
 * The site's PostgreSQL pool: timeouts so that a database that is down or
 * frozen answers requests with 503 + Retry-After instead of holding them
 * forever, and a pool that never crashes the process when the database
 * drops its connections (restart, `kill`, a dropped test database).
 *
 *   DATABASE_CONNECT_TIMEOUT_MS    waiting for a connection (new or from the pool), default 10000
 *   DATABASE_STATEMENT_TIMEOUT_MS  one SQL statement, default 15000 (the server cancels it;
 *                                  the client gives up 1 s later when the server is frozen)
 */
export function sitePoolConfig(connectionString: string, env: NodeJS.ProcessEnv = process.env): PoolConfig {
  const connect = positive(env.DATABASE_CONNECT_TIMEOUT_MS, 10_000)
  const statement = positive(env.DATABASE_STATEMENT_TIMEOUT_MS, 15_000)
  return {
    connectionString,
    // The recursive route/manifest queries cross jit_above_cost and would spend ~120 ms compiling a 3 ms query.
    options: '-c jit=off',
    connectionTimeoutMillis: connect,
    statement_timeout: statement,
    query_timeout: statement + 1000,
    // A transaction left open by a client that went away ends instead of holding its locks.
    idle_in_transaction_session_timeout: Math.max(statement * 2, 30_000),
    keepAlive: true,
  }
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

type PoolErrorListener = (error: Error) => void
const listeners = new Set<PoolErrorListener>()

/**
 * Tells `listener` about every connection error of the site's pools (an idle
 * client whose server went away). Without a listener they are ignored: the
 * pool drops the broken client and the next query opens a new connection.
 */
export function onPoolError(listener: PoolErrorListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const report = (error: Error) => {
  for (const listener of listeners) listener(error)
}

/**
 * pg's Pool with its `error` event always handled, on the pool (idle
 * clients) and on every client it opens (a client checked out between two
 * queries of a transaction): node-postgres throws an unhandled `error`
 * event otherwise, which ends the process.
 */
class SitePool extends pg.Pool {
  constructor(config?: PoolConfig) {
    super(config)
    this.on('error', report)
    this.on('connect', (client) => client.on('error', report))
  }
}

/** The `pg` module handed to Payload's postgres adapter: pg itself with SitePool as its Pool. */
export const sitePg: typeof pg = { ...pg, Pool: SitePool } as typeof pg

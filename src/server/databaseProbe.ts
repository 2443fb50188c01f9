import pg from 'pg'
import { innermostReason } from './innermostReason'

/**
 * How readiness asks the database: one `SELECT 1` on a connection of its own
 * (not the pool's: a pool busy under load is not an outage, and a probe
 * must not queue behind requests), given up after PROBE_TIMEOUT_MS. At most
 * one probe is in flight; its answer is reused for PROBE_REUSE_MS, so any
 * number of health checks costs at most one connection a second, and
 * readiness lags the database by at most PROBE_REUSE_MS + PROBE_TIMEOUT_MS.
 */
export const PROBE_TIMEOUT_MS = 2_000
export const PROBE_REUSE_MS = 1_000

export interface DatabaseProbe {
  /** Whether the database answered (the last answer while it is recent, else a new probe, shared by every caller). */
  reachable(): Promise<boolean>
}

/** `onChange` hears when the answer changes (with why it is unreachable), not on every probe. */
export function databaseProbe(
  connectionString: string,
  onChange: (reachable: boolean, reason?: string) => void = () => {},
  { timeoutMs = PROBE_TIMEOUT_MS, reuseMs = PROBE_REUSE_MS } = {},
): DatabaseProbe {
  let last: { reachable: boolean; at: number } | undefined
  let running: Promise<boolean> | undefined

  const ask = async (): Promise<{ reachable: boolean; reason?: string }> => {
    const client = new pg.Client({
      connectionString,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      application_name: 'cwa readiness',
    })
    client.on('error', () => {}) // the server going away mid-probe is the answer, not a crash
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs + 100)
    })
    try {
      await Promise.race([client.connect().then(() => client.query('SELECT 1')), late])
      return { reachable: true }
    } catch (error) {
      return { reachable: false, reason: innermostReason(error, 200) }
    } finally {
      clearTimeout(timer)
      void client.end().catch(() => {})
    }
  }

  return {
    reachable() {
      if (last && Date.now() - last.at < reuseMs) return Promise.resolve(last.reachable)
      running ??= ask().then(({ reachable, reason }) => {
        if (last?.reachable !== reachable && (last || !reachable)) onChange(reachable, reason)
        last = { reachable, at: Date.now() }
        running = undefined
        return reachable
      })
      return running
    },
  }
}

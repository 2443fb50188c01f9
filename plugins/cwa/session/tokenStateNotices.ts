import type { Payload, PayloadRequest } from 'payload'
import { onClosePayload } from '../core/utils/closePayload.js'
import { type AdapterPool, runSql, sql } from '../core/utils/sql.js'
import { forgetAllTokenStates, forgetTokenState, tokenStateTtlMs } from './revocation.js'

/**
 * Every instance keeps a user's token state (enabled, token version) for up
 * to 2 s (revocation.ts). So that a disabled account, a password change or a
 * demotion ends the user's JWTs at once on every instance, not within those
 * 2 s, a change announces itself with PostgreSQL's NOTIFY in the writing
 * transaction (delivered when it commits, never when it rolls back), and
 * each instance LISTENs on a connection of its own and forgets the user on
 * notice. When that connection breaks, the instance forgets every user
 * (a notice may have been missed) and connects again; meanwhile the 2 s
 * bound holds as before. No listener when nothing is kept
 * (CWA_SESSION_CHECK_CACHE_MS=0).
 */
export const TOKEN_STATE_CHANNEL = 'cwa_token_state'

/** Sends the notice in the request's transaction: every instance forgets the user once it commits. */
export async function announceTokenStateChange(req: PayloadRequest, userId: string | number): Promise<void> {
  await runSql(req.payload, sql`SELECT pg_notify(${TOKEN_STATE_CHANNEL}, ${String(userId)})`, req)
}

interface ListenerClient {
  connect(): Promise<void>
  query(text: string): Promise<unknown>
  end(): Promise<void>
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void
  on(event: 'error' | 'end', listener: (error?: Error) => void): void
  removeAllListeners(): void
}

/** Reconnection waits 1 s, doubling up to this. */
const MAX_RETRY_MS = 30_000

/** Starts this instance's listener (idempotent per Payload); stopped by closePayload. */
export function listenForTokenStateChanges(payload: Payload): void {
  if (tokenStateTtlMs() === 0 || listening.has(payload)) return
  // pg-pool sets `Client` (the class of its connections) at runtime; @types/pg leaves it out, hence optional and checked.
  const pool: (AdapterPool & { Client?: new (options: AdapterPool['options']) => ListenerClient }) | undefined =
    payload.db.pool
  if (!pool?.Client) return
  listening.add(payload)
  let client: ListenerClient | null = null
  let stopped = false
  let retryMs = 1000
  let timer: NodeJS.Timeout | null = null

  const lost = (reason: string) => {
    if (stopped || !client) return
    const broken = client
    client = null
    broken.removeAllListeners()
    broken.end().catch(() => {})
    forgetAllTokenStates(payload)
    payload.logger.warn(
      `The session-check listener lost its connection (${reason}): token states are read again, reconnecting in ${retryMs / 1000} s`,
    )
    schedule()
  }
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => void connect(), retryMs)
    timer.unref()
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)
  }
  const connect = async () => {
    timer = null
    const next = new pool.Client!(pool.options)
    next.on('error', (error) => lost(error?.message ?? 'error'))
    next.on('end', () => lost('the connection ended'))
    next.on('notification', (message) => {
      if (message.channel === TOKEN_STATE_CHANNEL && message.payload) forgetTokenState(payload, message.payload)
    })
    try {
      client = next
      await next.connect()
      await next.query(`LISTEN ${TOKEN_STATE_CHANNEL}`)
      if (stopped) return void next.end().catch(() => {})
      retryMs = 1000
      // A notice sent while this instance was not listening is lost: start from nothing.
      forgetAllTokenStates(payload)
    } catch (error) {
      if (client === next) lost((error as Error).message)
    }
  }
  onClosePayload(payload, async () => {
    stopped = true
    listening.delete(payload)
    if (timer) clearTimeout(timer)
    const open = client
    client = null
    open?.removeAllListeners()
    await open?.end().catch(() => {})
  })
  void connect()
}

const listening = new WeakSet<Payload>()

import { sql } from '@payloadcms/db-postgres'
import { createHmac, randomBytes } from 'node:crypto'
import { sha256Hex } from '../core/utils/hash.js'
import { requireTableName } from '../core/utils/schema.js'
import type { Payload, PayloadRequest } from 'payload'
import { forgetTokenState } from './revocation.js'
import { TOKEN_STATE_CHANNEL } from './tokenStateNotices.js'

const hash = sha256Hex

/** Something that runs SQL: the adapter's drizzle, or a transaction's. */
export interface Executor {
  execute(query: unknown): Promise<{ rows: unknown[] }>
}

/**
 * How long a rotated refresh token, presented again, still gets the same
 * successor instead of counting as reuse. Browsers (and server-side
 * renderers forwarding cookies) send the requests of one page in parallel,
 * all with the refresh cookie they had: only the first rotates, the others
 * must not log the user out. They get the very same successor (no new token
 * is issued), from any process, because the successor is derived from the
 * used token (see successorOf).
 */
export const REUSE_GRACE_SECONDS = 5

export type RotationResult =
  /** The token was valid: `token` is its successor (new, or the same one for a request in the grace period). */
  | { status: 'rotated'; userId: string; token: string; session: string }
  /** An already rotated token presented again after the grace period: every refresh token of the user is now revoked. */
  | { status: 'reused'; userId: string }
  /** Unknown, expired, logged out or expired by the operator. */
  | { status: 'invalid' }

interface Row {
  user_id: string
  revoked: boolean
  live: boolean
  recent: boolean
  created_at: Date | string
}

/** A new refresh token and the session (chain) it starts. */
export interface IssuedToken {
  token: string
  session: string
}

/**
 * A session's id: when its first token was issued (its `createdAt`, which
 * every successor keeps), as an ISO string. The user is checked beside it,
 * so two sessions share an id only when one user logged in twice within the
 * same millisecond (a logout of one then waits for the other to end too).
 */
const sessionId = (createdAt: Date | string): string => new Date(createdAt).toISOString()

/**
 * Issues, rotates and revokes the server-side refresh tokens (stored as a
 * SHA-256 only, in the hidden `refresh_tokens` collection).
 *
 * States of a record, with the existing columns only:
 * - usable: revokedAt null, expiresAt in the future;
 * - used (rotated): revokedAt set, expiresAt still in the future; presenting
 *   it again (after the grace period) is reuse: a stolen token replayed;
 * - ended: expiresAt in the past (natural expiry, logout, the
 *   refresh-tokens:expire command, reuse detection). Presenting it is a plain 401.
 *
 * A session is the chain of tokens from one login: every successor keeps
 * the first token's `createdAt`, the session's id (`sid` in its JWTs). It
 * is live while one of its tokens is usable; each statement that ends tokens
 * also tells every instance to forget what it cached of the user's sessions
 * (the session-check notice), so the embedded Mercure hub stops private
 * delivery to an ended session at once.
 */
export class RefreshTokenStore {
  constructor(
    readonly payload: Payload,
    readonly ttlSeconds: number,
    private readonly graceSeconds: number = REUSE_GRACE_SECONDS,
  ) {}

  private get db(): { drizzle: Executor } {
    return this.payload.db
  }

  /** The collection's table (table prefix applied), as the database adapter named it. */
  private get table() {
    return sql.identifier(requireTableName(this.payload, 'refresh_tokens'))
  }

  private async execute<T>(query: ReturnType<typeof sql>): Promise<T[]> {
    return (await this.db.drizzle.execute(query)).rows as T[]
  }

  /**
   * The successor of a used token: an HMAC of it under the site's secret.
   * Unpredictable without the token and the secret, the same in every
   * process, and never stored (only its hash is).
   */
  private successorOf(token: string): string {
    return createHmac('sha256', this.payload.secret).update(`refresh-token-successor:${token}`).digest('base64url')
  }

  /** A new refresh token of the user, starting a session; with `req`, inside that request's transaction (a login hook's). */
  async issue(userId: string, req?: PayloadRequest): Promise<IssuedToken> {
    const token = randomBytes(48).toString('base64url')
    const created = await this.payload.create({
      collection: 'refresh_tokens',
      data: {
        user: userId,
        tokenHash: hash(token),
        expiresAt: new Date(Date.now() + this.ttlSeconds * 1000).toISOString(),
      },
      overrideAccess: true,
      depth: 0,
      ...(req ? { req } : {}),
    })
    return { token, session: sessionId(created.createdAt) }
  }

  /** Whether the session still has a usable token (not logged out, expired or revoked). */
  async sessionLive(userId: string, session: string): Promise<boolean> {
    const [row] = await this.execute<{ live: boolean }>(sql`
      SELECT EXISTS (
        SELECT 1 FROM ${this.table}
         WHERE user_id = ${userId} AND created_at = ${session}::timestamptz
           AND revoked_at IS NULL AND expires_at > now()
      ) AS live`)
    return row?.live === true
  }

  /**
   * Uses a refresh token once: marks it used and stores its successor, in
   * one statement (two concurrent uses cannot both succeed). Reuse of a
   * used token after the grace period revokes every token of its user.
   */
  async rotate(token: string): Promise<RotationResult> {
    if (!token) return { status: 'invalid' }
    const successor = this.successorOf(token)
    const claimed = await this.execute<{ user_id: string; created_at: Date | string }>(sql`
      WITH used AS (
        UPDATE ${this.table} SET revoked_at = now(), updated_at = now()
         WHERE token_hash = ${hash(token)} AND revoked_at IS NULL AND expires_at > now()
         RETURNING user_id, created_at
      )
      INSERT INTO ${this.table} (user_id, token_hash, expires_at, created_at)
      SELECT user_id, ${hash(successor)}, now() + make_interval(secs => ${this.ttlSeconds}), created_at
        FROM used
      RETURNING user_id, created_at`)
    if (claimed[0])
      return {
        status: 'rotated',
        userId: String(claimed[0].user_id),
        token: successor,
        session: sessionId(claimed[0].created_at),
      }

    const [row] = await this.execute<Row>(sql`
      SELECT user_id, revoked_at IS NOT NULL AS revoked, expires_at > now() AS live,
             revoked_at > now() - make_interval(secs => ${this.graceSeconds}) AS recent, created_at
        FROM ${this.table} WHERE token_hash = ${hash(token)}`)
    if (!row || !row.live || !row.revoked) return { status: 'invalid' }
    const userId = String(row.user_id)
    if (row.recent) {
      // A parallel request of the same page: the same successor, if it is still unused.
      const [next] = await this.execute<Row>(sql`
        SELECT user_id, revoked_at IS NOT NULL AS revoked, expires_at > now() AS live, false AS recent, created_at
          FROM ${this.table} WHERE token_hash = ${hash(successor)} AND user_id = ${userId}`)
      if (next?.live && !next.revoked)
        return { status: 'rotated', userId, token: successor, session: sessionId(next.created_at) }
      // The session ended meanwhile (logout, operator): nothing to detect.
      if (next && !next.live) return { status: 'invalid' }
    }
    await this.revokeAllOf(userId)
    return { status: 'reused', userId }
  }

  /**
   * Runs an UPDATE that ends tokens (`RETURNING user_id, <was usable> AS was_usable`) and, in the same
   * statement, sends the session-check notice for each user it touched; this instance forgets them at once.
   * Returns how many of the ended tokens were still usable.
   */
  private async endTokens(update: ReturnType<typeof sql>): Promise<number> {
    const rows = await this.execute<{ user_id: string; was_usable: boolean }>(sql`
      WITH ended AS (${update}),
           notices AS (SELECT pg_notify(${TOKEN_STATE_CHANNEL}, user_id::text) FROM (SELECT DISTINCT user_id FROM ended) u)
      SELECT user_id, was_usable, (SELECT count(*) FROM notices) AS notices FROM ended`)
    for (const userId of new Set(rows.map((row) => String(row.user_id)))) forgetTokenState(this.payload, userId)
    return rows.filter((row) => row.was_usable).length
  }

  /** Ends one token (logout, or a successor that cannot be handed out). Unknown tokens are ignored. */
  async revoke(token: string): Promise<void> {
    await this.endTokens(sql`
      UPDATE ${this.table}
         SET revoked_at = coalesce(revoked_at, now()), expires_at = least(expires_at, now()), updated_at = now()
       WHERE token_hash = ${hash(token)} AND expires_at > now()
       RETURNING user_id, true AS was_usable`)
  }

  /** Ends every token of a user (reuse detected, the admin panel's logout). Returns how many were still usable. */
  async revokeAllOf(userId: string): Promise<number> {
    return this.endTokens(sql`
      UPDATE ${this.table} t
         SET revoked_at = coalesce(t.revoked_at, now()), expires_at = least(t.expires_at, now()), updated_at = now()
        FROM ${this.table} old
       WHERE old.id = t.id AND t.user_id = ${userId} AND t.expires_at > now()
       RETURNING t.user_id, old.revoked_at IS NULL AS was_usable`)
  }

  /**
   * Ends every token of a user except the session presenting `keepToken`
   * (that token and its successor, so a session refreshed on this very
   * request survives too): a password change logs out the other sessions.
   * `db` runs it on the caller's transaction. Returns how many were usable.
   */
  async revokeOthers(userId: string, keepToken: string | undefined, db: Executor = this.db.drizzle): Promise<number> {
    const kept = keepToken ? [hash(keepToken), hash(this.successorOf(keepToken))] : []
    const keep =
      kept.length > 0
        ? sql` AND t.token_hash NOT IN (${sql.join(
            kept.map((k) => sql`${k}`),
            sql`, `,
          )})`
        : sql``
    const result = await db.execute(sql`
      UPDATE ${this.table} t
         SET revoked_at = coalesce(t.revoked_at, now()), expires_at = least(t.expires_at, now()), updated_at = now()
        FROM ${this.table} old
       WHERE old.id = t.id AND t.user_id = ${userId} AND t.expires_at > now()${keep}
       RETURNING old.revoked_at IS NULL AS was_usable`)
    return (result.rows as Array<{ was_usable: boolean }>).filter((r) => r.was_usable).length
  }

  /**
   * Expires the tokens of one user, or of everybody (operator command).
   * Returns how many were still usable.
   */
  async expire(userId?: string): Promise<number> {
    const byUser = userId === undefined ? sql`` : sql` AND user_id = ${userId}`
    return this.endTokens(sql`
      UPDATE ${this.table} SET expires_at = least(expires_at, now()), updated_at = now()
       WHERE expires_at > now()${byUser}
       RETURNING user_id, revoked_at IS NULL AS was_usable`)
  }
}

import { randomBytes, timingSafeEqual } from 'node:crypto'
import { sha256Hex } from '../../../core/utils/hash.js'
import type { Payload, PayloadRequest } from 'payload'
import { inTransaction, sql, sqlExecutor, type SqlExecutor } from '../../../core/utils/sql.js'
import { requireTableName } from '../../../core/utils/schema.js'
import type { TokenPurpose } from './collection.js'

/** What the token functions need: the Payload instance and, when inside a write, its request (to share the transaction). */
export interface TokenScope {
  payload: Payload
  req?: PayloadRequest
}

/** Something that runs SQL: the adapter's drizzle, or a transaction's. */
export type Executor = SqlExecutor

const hashOf = sha256Hex

/** A new random token (32 bytes, base64url): the raw value goes into the link, only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The SQL executor of the request's open transaction, else the adapter's (so a token commits or rolls back with the write that sent it). */
export function executor({ payload, req }: TokenScope): Promise<Executor> {
  return sqlExecutor(payload, req)
}

function table(payload: Payload) {
  return sql.identifier(requireTableName(payload, 'user_tokens'))
}

async function rows<T>(scope: TokenScope, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await (await executor(scope)).execute(query)).rows as T[]
}

/** Throttle key of a known user. */
export const userSubject = (userId: string) => String(userId)

/** Throttle key of an identifier with no account (password reset with concealUnknownUsers): never the identifier itself. */
export const unknownSubject = (identifier: string) => `unknown:${hashOf(identifier.trim().toLowerCase())}`

/**
 * Marks a row whose link no longer works but whose send still counts for
 * the repeat wait (see secondsUntilRepeat). Never the hash of a token: a
 * SHA-256 hex digest cannot start with it.
 */
const SPENT = 'spent:'

/**
 * Stores a token whose email was just sent. The older tokens of the same
 * purpose for the same subject stop working (their links return 404): rows
 * sent within the repeat wait stay as spent rows (they are the send log the
 * repeat wait counts, see secondsUntilRepeat), older ones are deleted. Call
 * it only AFTER the email went out: a failed send must leave the previous
 * link working. `userId` null stores a throttle placeholder (no usable
 * token); placeholders whose repeat wait is over hold nothing any more and
 * are deleted here, so a flood of unknown identifiers keeps at most one
 * repeat wait's worth of them.
 */
export async function saveToken(
  scope: TokenScope,
  args: {
    purpose: TokenPurpose
    userId: string | null
    /** Throttle key; the user id by default (see unknownSubject for placeholders). */
    subject?: string
    token: string
    validitySeconds: number
    /** The purpose's repeat wait: how long a send counts (spent rows and placeholders older than it are deleted). */
    repeatSeconds?: number
    data?: string | null
  },
): Promise<void> {
  const subject = args.subject ?? userSubject(String(args.userId))
  const t = table(scope.payload)
  const window = sql`now() - make_interval(secs => ${args.repeatSeconds ?? 0})`
  // One statement: the old rows go (or are spent) and the new one comes in together. The two
  // modifying parts touch disjoint rows (sent within the wait, or not).
  await rows(
    scope,
    sql`WITH gone AS (
          DELETE FROM ${t} WHERE purpose = ${args.purpose}
             AND ((subject = ${subject} AND sent_at <= ${window}) OR (user_id IS NULL AND subject <> ${subject} AND sent_at <= ${window}))
        ), spent AS (
          UPDATE ${t} SET token_hash = ${SPENT}::text || id::text, expires_at = now()
           WHERE purpose = ${args.purpose} AND subject = ${subject} AND sent_at > ${window} AND token_hash NOT LIKE ${`${SPENT}%`}
        )
        INSERT INTO ${t} (purpose, user_id, subject, token_hash, expires_at, sent_at, data)
        VALUES (${args.purpose}, ${args.userId}, ${subject}, ${hashOf(args.token)},
                now() + make_interval(secs => ${args.validitySeconds}), now(), ${args.data ?? null})`,
  )
}

/**
 * Uses a token once: when `token` is the user's live token of that purpose
 * (hashes compared in constant time), its row is spent (the link dies, the
 * send still counts for the repeat wait) and its data returned; otherwise null (unknown, used, replaced or expired). Two
 * concurrent uses cannot both succeed: only one delete returns the row.
 */
export async function consumeToken(
  scope: TokenScope,
  args: { purpose: TokenPurpose; userId: string; token: string },
): Promise<{ data: string | null } | null> {
  const t = table(scope.payload)
  const candidates = await rows<{ id: string; token_hash: string }>(
    scope,
    sql`SELECT id, token_hash FROM ${t} WHERE purpose = ${args.purpose} AND user_id = ${args.userId} AND expires_at > now()`,
  )
  const presented = Buffer.from(hashOf(args.token), 'hex')
  const match = candidates.find((row) => {
    const stored = Buffer.from(row.token_hash, 'hex')
    return stored.length === presented.length && timingSafeEqual(new Uint8Array(stored), new Uint8Array(presented))
  })
  if (!match) return null
  // The row stays as a spent one (its send keeps counting for the repeat wait, see secondsUntilRepeat).
  // Only one of two concurrent uses can still find the hash it matched.
  const [used] = await rows<{ data: string | null }>(
    scope,
    sql`UPDATE ${t} SET token_hash = ${SPENT}::text || id::text, expires_at = now()
         WHERE id = ${match.id} AND token_hash = ${match.token_hash} RETURNING data`,
  )
  return used ? { data: used.data } : null
}

/**
 * Ends every token of that purpose for the user (a cancelled email change:
 * its link then returns 404). The rows stay as spent rows: a cancel does
 * not undo the send, which keeps counting for the repeat wait (replacing or
 * cancelling a change cannot be used to mail without limit). Returns how many.
 */
export async function discardTokens(
  scope: TokenScope,
  args: { purpose: TokenPurpose; userId: string },
): Promise<number> {
  const gone = await rows(
    scope,
    sql`UPDATE ${table(scope.payload)} SET token_hash = ${SPENT}::text || id::text, expires_at = now()
         WHERE purpose = ${args.purpose} AND user_id = ${args.userId} AND token_hash NOT LIKE ${`${SPENT}%`} RETURNING id`,
  )
  return gone.length
}

/**
 * Seconds until another email of that purpose may be sent to the subject,
 * 0 when none is due. The rule: the repeat wait runs from the last send;
 * but when the link of that last send was discarded since (a cancelled or
 * replaced email change) and it is the only send within the wait, one more
 * email may go out at once. So at most two emails per repeat wait: the
 * normal "cancel (or change your mind), then ask again" works at once, a
 * burst of alternating requests does not. A used link counts like a
 * discarded one: after using it, one more email may go out at once (and
 * confirming an address of one's own in between cannot reset the count).
 */
export async function secondsUntilRepeat(
  scope: TokenScope,
  args: { purpose: TokenPurpose; subject: string; repeatSeconds: number },
): Promise<number> {
  const [row] = await rows<{ wait: number | null; recent: number; discarded: boolean | null }>(
    scope,
    sql`SELECT ceil(extract(epoch FROM max(sent_at) + make_interval(secs => ${args.repeatSeconds}) - now()))::int AS wait,
               (count(*) FILTER (WHERE sent_at > now() - make_interval(secs => ${args.repeatSeconds})))::int AS recent,
               (array_agg(token_hash LIKE ${`${SPENT}%`} ORDER BY sent_at DESC, id DESC))[1] AS discarded
          FROM ${table(scope.payload)} WHERE purpose = ${args.purpose} AND subject = ${args.subject}`,
  )
  const wait = Math.max(0, row?.wait ?? 0)
  if (wait > 0 && row?.discarded && row.recent < 2) return 0
  return wait
}

/**
 * Runs `fn` holding a transaction-scoped advisory lock on (purpose,
 * subject), so that two concurrent requests cannot both pass the repeat
 * wait and both send. The lock is only tried, never waited for (waiting
 * requests would each hold a pool connection): a request that finds it
 * taken gets `busy` (the flows answer it like a running repeat wait).
 * Uses the request's transaction, or opens one for the duration (the send
 * happens inside it: the token is saved only if the send succeeded).
 */
export async function withSubjectLock<T>(
  scope: TokenScope & { req: PayloadRequest },
  args: { purpose: TokenPurpose; subject: string },
  fn: () => Promise<T>,
  busy: () => T | Promise<T>,
): Promise<T> {
  return inTransaction(scope.req, async () => {
    const [lock] = await rows<{ ok: boolean }>(
      scope,
      sql`SELECT pg_try_advisory_xact_lock(hashtext(${`user_tokens:${args.purpose}:${args.subject}`})) AS ok`,
    )
    return lock?.ok ? fn() : busy()
  })
}

export { inTransaction }

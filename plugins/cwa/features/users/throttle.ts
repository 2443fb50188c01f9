import type {
  CollectionAfterErrorHook,
  CollectionAfterLoginHook,
  CollectionBeforeOperationHook,
  PayloadRequest,
} from 'payload'
import { HttpError } from '../../hydra/errors.js'
import { clientAddress } from '../../core/utils/clientAddress.js'
import { sha256Hex } from '../../core/utils/hash.js'
import {
  countHits,
  forgetHits,
  forgetHitsByPrefix,
  takeHit,
  throttleWait,
  type ThrottleRule,
} from '../../core/utils/throttle.js'
import type { TokenPurpose } from './tokens/collection.js'
import { secondsUntilRepeat, type TokenScope } from './tokens/store.js'

/**
 * The 429 and 503 carry their own `private, no-store`: besides the email flows (whose endpoints declare it),
 * they answer form submits, whose policy depends on the form, and Payload's REST login, outside the pipeline.
 */
// eslint-disable-next-line no-restricted-syntax -- an error's own headers, on Payload's REST API too
const PRIVATE_NO_STORE = { 'Cache-Control': 'private, no-store' } as const

/** 429 with Retry-After (seconds to wait): nothing was sent or changed. */
export function tooManyRequests(
  seconds: number,
  message = `Please wait ${seconds} seconds before asking for another email.`,
): HttpError {
  return new HttpError(429, message, { ...PRIVATE_NO_STORE, 'Retry-After': String(seconds) })
}

/** 503: the email could not be sent; nothing was saved and the previous link keeps working. */
export function emailNotSent(): HttpError {
  return new HttpError(503, 'The email could not be sent. Please try again later.', { ...PRIVATE_NO_STORE })
}

/**
 * Throws 429 while the repeat wait of the last email of that purpose to the
 * subject (a user id, or unknownSubject(identifier)) is running.
 */
export async function assertNotThrottled(
  scope: TokenScope,
  args: { purpose: TokenPurpose; subject: string; repeatSeconds: number },
): Promise<void> {
  const wait = await secondsUntilRepeat(scope, args)
  if (wait > 0) throw tooManyRequests(wait)
}

/**
 * Login throttle (both `POST {api_prefix}/login` and Payload's
 * `POST /api/users/login`, which share the users collection's login
 * operation), counted in PostgreSQL (core/utils/throttle.ts) so every
 * instance counts together. Failed logins are counted per client address
 * and per account *and* client address; past a limit the client gets 429
 * with Retry-After before any password is checked. Payload's account lock
 * (10 failures, 10 minutes) stays behind it against guessing from many
 * addresses, but it no longer locks the owner out: a locked account still
 * accepts the right password on the first try of a client address that has
 * not failed on it within the window (hooks/loginChecks.ts); a wrong one
 * counts, and that address is then held by the lock like any other.
 */
export const LOGIN_THROTTLE = {
  /** Failed logins from one client address, whatever the account. */
  perClient: { limit: 30, windowSeconds: 900 },
  /** Failed logins on one account from one client address. */
  perAccountAndClient: { limit: 5, windowSeconds: 900 },
} as const

const accountPrefix = (username: string) => `login:account:${sha256Hex(username)}:client:`

/** Forgets the failed logins counted on the account from every address (a password reset: the owner proved control of the mailbox). */
export async function forgetAccountFailures(payload: PayloadRequest['payload'], username: string): Promise<void> {
  await forgetHitsByPrefix(payload, accountPrefix(username.toLowerCase().trim()))
}

function loginRules(req: PayloadRequest, username: string): { client: ThrottleRule; account: ThrottleRule } {
  const address = clientAddress(req.headers)
  return {
    client: { key: `login:client:${address}`, ...LOGIN_THROTTLE.perClient },
    // The identifier is kept as a hash: people type passwords into the username field.
    account: { key: `${accountPrefix(username)}${address}`, ...LOGIN_THROTTLE.perAccountAndClient },
  }
}

const loginUsername = (args: unknown): string => {
  const data = (args as { data?: { username?: unknown; email?: unknown } }).data
  const value = typeof data?.username === 'string' ? data.username : typeof data?.email === 'string' ? data.email : ''
  return value.toLowerCase().trim()
}

/** 429 with Retry-After: for the JSON-LD API (the error's headers) and Payload's REST API (the request's response headers). */
function loginThrottled(req: PayloadRequest, seconds: number): HttpError {
  const headers = new Headers(req.responseHeaders ?? undefined)
  headers.set('Retry-After', String(seconds))
  // eslint-disable-next-line no-restricted-syntax -- Payload's REST login reads these headers: no pipeline there
  headers.set('Cache-Control', 'private, no-store')
  req.responseHeaders = headers
  return tooManyRequests(seconds, `Too many failed login attempts: please wait ${seconds} seconds.`)
}

/**
 * Before a login: refused with 429 while the client is throttled; otherwise
 * the attempt is counted as a failure up front (so that concurrent guesses
 * cannot all pass), and loginSucceeded takes it back.
 */
export const loginThrottle: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'login') return args
  const username = loginUsername(args)
  if (!username) return args
  const { client, account } = loginRules(req, username)
  const wait = await throttleWait(req.payload, [client, account])
  if (wait > 0) throw loginThrottled(req, wait)
  const hits = await countHits(req.payload, [client, account])
  // This client's first try on this account within the window: a locked account still takes its right password (see equalLoginTiming).
  req.context.cwaFirstLoginTry = hits.get(account.key.slice(0, 512))?.hits === 1
  return args
}

/**
 * A failed password check outside the login (the change_password form's
 * current password) counts like a failed login of the account from the
 * client: the throttle and the lock treat both alike.
 */
export async function countFailedPasswordCheck(
  payload: PayloadRequest['payload'],
  headers: Headers,
  username: string,
): Promise<void> {
  const { client, account } = loginRules({ headers } as PayloadRequest, username.toLowerCase().trim())
  await countHits(payload, [client, account])
}

/** A successful login takes its attempt back and clears the account's failures from this client. */
export const loginSucceeded: CollectionAfterLoginHook = async ({ req, user }) => {
  const username = String((user as { username?: unknown }).username ?? '')
    .toLowerCase()
    .trim()
  if (username) {
    const { client, account } = loginRules(req, username)
    await forgetHits(req.payload, [{ key: account.key, all: true }, { key: client.key }])
  }
  return user
}

/** The one answer to a refused login on every API (unknown user, wrong password, locked or disabled account). */
export const INVALID_CREDENTIALS = 'Invalid credentials.'

/**
 * Payload's REST login answers an unknown username, a wrong password and a
 * locked account with three messages: which tells anyone which usernames
 * exist and which accounts are locked. They all get the JSON-LD API's one.
 */
export const sameLoginRefusal: CollectionAfterErrorHook = ({ error }) => {
  const name = (error as { name?: string } | undefined)?.name
  if (name !== 'AuthenticationError' && name !== 'LockedAuth') return
  return { response: { errors: [{ message: INVALID_CREDENTIALS }] }, status: 401 }
}

/**
 * Anonymous form submits: at most FORM_SUBMIT_THROTTLE.limit per client
 * address and window (429 with Retry-After past it), counted in PostgreSQL.
 */
export const FORM_SUBMIT_THROTTLE = { limit: 30, windowSeconds: 60 } as const

/** Counts an anonymous submit of the client; throws 429 past the limit. */
export async function assertSubmitAllowed(payload: TokenScope['payload'], headers: Headers): Promise<void> {
  const wait = await takeHit(payload, { key: `form_submit:client:${clientAddress(headers)}`, ...FORM_SUBMIT_THROTTLE })
  if (wait > 0) throw tooManyRequests(wait, `Too many form submissions: please wait ${wait} seconds.`)
}

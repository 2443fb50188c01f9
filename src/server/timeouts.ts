/** npm start's time limits: the requests' (HTTP_*_TIMEOUT_MS) and a stop's (SHUTDOWN_*_MS), from the environment. */

const positive = (value: string | undefined, fallback: number) => (Number(value) > 0 ? Number(value) : fallback)
/** The whole request (headers and body) must arrive within this (a body that never finishes frees its connection). */
export const REQUEST_TIMEOUT = positive(process.env.HTTP_REQUEST_TIMEOUT_MS, 20_000)
export const HEADERS_TIMEOUT = Math.min(positive(process.env.HTTP_HEADERS_TIMEOUT_MS, 10_000), REQUEST_TIMEOUT)
/** How long a stop waits for requests in flight before closing their connections. */
export const SHUTDOWN_GRACE = positive(process.env.SHUTDOWN_GRACE_MS, 10_000)
/**
 * How long after SIGTERM the port still accepts and answers (readiness
 * already 503), so that what a load balancer sends until it notices, and
 * what waits in the accept queue, is answered instead of reset: 5 s in
 * production (a balancer takes a target out within a few of its
 * health-check intervals), 250 ms otherwise (no balancer: what was already
 * sent is taken in, and a stop stays quick). Read before Next.js may set
 * NODE_ENV for the admin panel.
 */
export const SHUTDOWN_DELAY = nonNegative(
  process.env.SHUTDOWN_DELAY_MS,
  process.env.NODE_ENV === 'production' ? 5_000 : 250,
)

/** While stopping, how long a connection accepted before the port closed may take to send its request. */
export const FIRST_REQUEST_WAIT = 3_000

function nonNegative(value: string | undefined, fallback: number): number {
  return value !== undefined && value.trim() !== '' && Number(value) >= 0 ? Number(value) : fallback
}

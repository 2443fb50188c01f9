/**
 * Waiting on a condition instead of sleeping a fixed time: `waitFor` polls
 * until the condition holds (a truthy value, which it resolves with) and
 * fails with a clear message once the deadline has passed.
 *
 *   await waitFor(async () => (await server.get('/_api/_/routes//soon')).status === 200, { timeout: 5000, message: 'the route goes live' })
 */

export interface WaitOptions {
  /** Milliseconds until it gives up (default 5000). */
  timeout?: number
  /** Milliseconds between two checks (default 20). */
  interval?: number
  /** What is awaited, for the timeout error (a function is asked at the timeout). */
  message?: string | (() => string)
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>

export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeout = 5000, interval = 20, message = 'the condition' }: WaitOptions = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeout
  for (;;) {
    const value = await condition()
    if (value) return value as Truthy<T>
    if (Date.now() > deadline)
      throw new Error(
        `Timed out after ${timeout} ms waiting for ${typeof message === 'function' ? message() : message}`,
      )
    await new Promise((resolve) => setTimeout(resolve, interval))
  }
}

/**
 * Reads across a moment in time (a go-live, a scheduled publication) by
 * polling instead of sleeping until it: every answer that came back before
 * `moment` goes to `before` (which asserts the state before it), and the
 * first answer to a read sent after `moment` (plus `margin` ms for clocks
 * that tick apart) is returned, for the caller to assert the state after it.
 */
export async function firstReadAfter<T>(
  moment: Date | number,
  read: () => Promise<T>,
  before: (value: T) => void,
  { margin = 50, interval = 50, timeout, message = 'a read after the moment' }: WaitOptions & { margin?: number } = {},
): Promise<T> {
  const after = Number(moment) + margin
  const found = await waitFor(
    async () => {
      const sent = Date.now()
      const value = await read()
      if (sent > after) return { value }
      if (Date.now() < Number(moment)) before(value)
      return null
    },
    { interval, timeout: timeout ?? Math.max(0, after - Date.now()) + 5000, message },
  )
  return found.value
}

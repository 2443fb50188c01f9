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

export async function waitFor<T>(condition: () => T | Promise<T>, { timeout = 5000, interval = 20, message = 'the condition' }: WaitOptions = {}): Promise<Truthy<T>> {
  const deadline = Date.now() + timeout
  for (;;) {
    const value = await condition()
    if (value) return value as Truthy<T>
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${typeof message === 'function' ? message() : message}`)
    await new Promise((resolve) => setTimeout(resolve, interval))
  }
}

import type { Payload, PayloadRequest } from 'payload'
import { type LockConnection, type LockPool, trySessionLock } from '../utils/sessionLock.js'

/**
 * One jobs runner per database, by election. Every instance may start
 * Payload's jobs runner (`jobs.autoRun`), but Payload's runner reads the jobs
 * to run, then marks them: two runners ticking at the same second take the
 * same jobs and run them twice. So before each tick an instance asks whether
 * it holds a PostgreSQL session advisory lock (`cwa:jobs:runner`), taking it
 * when it is free: the holder runs (and schedules) the jobs, the others stand
 * by. The lock lives on one connection the holder keeps from its pool; when
 * the holder stops (closePayload releases it) or dies (its session ends), the
 * next tick of another instance takes over.
 */

const KEY = 'cwa:jobs:runner'

const held = new WeakMap<Payload, LockConnection>()

async function stillHeld(payload: Payload, client: LockConnection): Promise<boolean> {
  try {
    await client.query('SELECT 1')
    return true
  } catch {
    // The connection broke: its session, and the lock with it, are gone.
    held.delete(payload)
    client.release(true)
    return false
  }
}

/** Whether this instance is the jobs runner now (taking the role when it is free). */
export async function isElectedRunner(payload: Payload): Promise<boolean> {
  const current = held.get(payload)
  if (current && (await stillHeld(payload, current))) return true
  const pool: LockPool | undefined = payload.db.pool
  if (!pool) return true
  const client = await trySessionLock(pool, KEY)
  if (!client) return false
  client.on('error', () => held.delete(payload))
  held.set(payload, client)
  payload.logger.info('This instance runs the jobs (it holds the jobs runner lock; other instances stand by)')
  return true
}

/** Gives the role up (closePayload): another instance's next tick takes it. */
export async function releaseRunner(payload: Payload): Promise<void> {
  const client = held.get(payload)
  if (!client) return
  held.delete(payload)
  await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [KEY]).catch(() => undefined)
  client.release()
}

type ShouldAutoRun = (payload: Payload) => boolean | Promise<boolean>

/** Payload's `jobs.shouldAutoRun`: the app's own answer (when it has one), and the election. */
export function electedAutoRun(own?: ShouldAutoRun): ShouldAutoRun {
  return async (payload) => (own ? await own(payload) : true) && (await isElectedRunner(payload))
}

type ScheduleHook = (args: ScheduleHookArgs) => Promise<unknown>

interface ScheduleHookArgs {
  req: PayloadRequest
  defaultBeforeSchedule?: ScheduleHook | null
  defaultAfterSchedule?: ScheduleHook | null
  [key: string]: unknown
}

/**
 * A task's schedule for every instance's cron, queued by the elected runner
 * only: Payload's check for a run already queued is a count, not a lock, so
 * instances ticking together would each queue one. The others skip it without
 * a trace (not even Payload's "last scheduled run" stamp); the runner goes
 * through Payload's own checks.
 */
export function electedSchedule<T extends { cron: string; queue: string }>(schedule: T): T {
  return {
    ...schedule,
    hooks: {
      beforeSchedule: async (args: ScheduleHookArgs) =>
        (await isElectedRunner(args.req.payload)) && args.defaultBeforeSchedule
          ? args.defaultBeforeSchedule(args)
          : { shouldSchedule: false },
      afterSchedule: async (args: ScheduleHookArgs) => {
        if ((await isElectedRunner(args.req.payload)) && args.defaultAfterSchedule)
          await args.defaultAfterSchedule(args)
      },
    },
  }
}

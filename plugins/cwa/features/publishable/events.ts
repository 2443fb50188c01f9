import { emitWriteEvent } from '../../core/events/index.js'
import { inTransaction as inRequestTransaction } from '../../core/utils/sql.js'
import type { PublishContext } from './context.js'

/**
 * The publication transitions on the write-event bus (core/events). Every
 * record a transition writes is reported by the collection hooks (create,
 * update, delete); a publication (a draft becoming the published record, or
 * its content replacing its twin's) is reported here, and merges with the
 * hooks' update of the same record into one `publish` event.
 */
export async function emitPublished(ctx: PublishContext, id: string): Promise<void> {
  await emitWriteEvent(ctx.req, { type: 'publish', collection: ctx.slug, id })
}

/** A record changed by the database itself (a twin pointer cleared by ON DELETE SET NULL): no hook saw it. */
export async function emitChanged(ctx: PublishContext, id: string): Promise<void> {
  await emitWriteEvent(ctx.req, { type: 'update', collection: ctx.slug, id })
}

/**
 * Runs `fn` in one transaction on the request (reusing the request's when one
 * is open). The write events queued inside go out after the outermost commit
 * and are dropped when it rolls back.
 */
export function inTransaction<T>(ctx: PublishContext, fn: () => Promise<T>): Promise<T> {
  return inRequestTransaction(ctx.req, async () => {
    // Payload writes made by the transition itself must not be routed through it again (payloadApis.ts).
    transitions.set(ctx.req, (transitions.get(ctx.req) ?? 0) + 1)
    try {
      return await fn()
    } finally {
      transitions.set(ctx.req, (transitions.get(ctx.req) ?? 1) - 1)
    }
  })
}

/** Requests inside a transition of the state machine, with its nesting depth. */
const transitions = new WeakMap<object, number>()

/** Whether `req` is inside a transition (its own Payload writes are what the transition decided). */
export const inTransition = (req: object): boolean => (transitions.get(req) ?? 0) > 0

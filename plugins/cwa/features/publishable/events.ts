import { commitTransaction, initTransaction, killTransaction, type PayloadRequest } from 'payload'
import { getRegistry } from '../../core/registry'
import type { PublishContext } from './context'

/**
 * Emitted once per transition (create/update/delete/publish) for real-time
 * and cache plugins, after the transaction that made it has committed (never
 * for a transition that was rolled back).
 */
export interface PublishEvent {
  type: 'create' | 'update' | 'delete' | 'publish'
  slug: string
  /** Ids touched: the published and/or draft record (null: none on that side). */
  ids: { published: string | null; draft: string | null }
  /** The same as IRIs (API prefix included). */
  iris: { published: string | null; draft: string | null }
}

export type PublishListener = (event: PublishEvent, req: PayloadRequest) => void | Promise<void>

const listeners = new Set<PublishListener>()

/** Subscribes to publish events (returns an unsubscribe function). */
export function onPublishEvent(listener: PublishListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Events of the transaction running on a request, sent when its outermost transition commits. */
const pending = new WeakMap<PayloadRequest, PublishEvent[]>()

async function dispatch(events: PublishEvent[], req: PayloadRequest): Promise<void> {
  for (const event of events) {
    for (const listener of listeners) {
      try {
        await listener(event, req)
      } catch (error) {
        // The transition is committed: a failing listener must not turn it into an error response.
        req.payload.logger.error({ err: error, event }, 'publishable event listener failed')
      }
    }
  }
}

/** Queues an event on the request's transaction (or sends it at once outside one). */
export function emit(
  ctx: PublishContext,
  type: PublishEvent['type'],
  ids: { published?: string | null; draft?: string | null },
): void {
  const registry = getRegistry(ctx.payload.config)
  const published = ids.published ?? null
  const draft = ids.draft ?? null
  const event: PublishEvent = {
    type,
    slug: ctx.slug,
    ids: { published, draft },
    iris: {
      published: published ? registry.itemIri(ctx.slug, published) : null,
      draft: draft ? registry.itemIri(ctx.slug, draft) : null,
    },
  }
  const queue = pending.get(ctx.req)
  if (queue) queue.push(event)
  else void dispatch([event], ctx.req)
}

/**
 * Runs `fn` in a transaction (reusing the request's when one is open). Events
 * emitted inside are held back and dispatched once the outermost call has
 * committed; they are dropped when it fails.
 */
export async function inTransaction<T>(ctx: PublishContext, fn: () => Promise<T>): Promise<T> {
  const outermost = !pending.has(ctx.req)
  if (outermost) pending.set(ctx.req, [])
  let started = false
  try {
    started = await initTransaction(ctx.req)
    const result = await fn()
    if (started) await commitTransaction(ctx.req)
    if (outermost) {
      const events = pending.get(ctx.req) ?? []
      pending.delete(ctx.req)
      await dispatch(events, ctx.req)
    }
    return result
  } catch (error) {
    if (started) await killTransaction(ctx.req)
    if (outermost) pending.delete(ctx.req)
    throw error
  }
}

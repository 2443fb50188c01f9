import type { Payload, PayloadRequest } from 'payload'

/**
 * Side effects that must wait for the database: files removed, e-mails sent,
 * caches purged, hub updates published. `afterCommit(req, fn)` runs `fn` once
 * the transaction open on `req` has committed, and never when it rolls back.
 *
 * It works on every API (JSON-LD, Payload REST, the admin panel, the Local
 * API) because it sits on the database adapter itself: whichever code opened
 * the transaction (our pipeline, a Payload operation, a hook), the adapter's
 * commitTransaction/rollbackTransaction is where it ends. Nested operations
 * share the outermost transaction id, so callbacks wait for the real commit.
 */
export type AfterCommitCallback = () => void | Promise<void>

interface TransactionAdapter {
  sessions?: Record<string, unknown>
  commitTransaction(id?: unknown): Promise<void>
  rollbackTransaction(id?: unknown): Promise<void>
  [installedMark]?: true
}

const installedMark = Symbol.for('payload-cwa.afterCommit')

/** Callbacks per open transaction id (ids are UUIDs: unique across Payload instances too). */
const pending = new Map<string, { payload: Payload; callbacks: AfterCommitCallback[] }>()

/** Work to do in the transaction just before it commits, per transaction id: items by key, each key with its flush. */
const beforeCommitWork = new Map<
  string,
  Map<string, { items: unknown[]; flush: (items: unknown[]) => Promise<void> }>
>()

/** Runs the queued before-commit work of a transaction (a flush may queue more: it runs too). Throws what a flush throws. */
async function flushBeforeCommit(id: string): Promise<void> {
  for (let work = beforeCommitWork.get(id); work && work.size > 0; work = beforeCommitWork.get(id)) {
    beforeCommitWork.set(id, new Map())
    for (const { items, flush } of work.values()) await flush(items)
  }
  beforeCommitWork.delete(id)
}

async function resolveId(id: unknown): Promise<string | null> {
  const value = id instanceof Promise ? await id : id
  return value === undefined || value === null || value === '' ? null : String(value)
}

async function runAll(payload: Payload, callbacks: AfterCommitCallback[]): Promise<void> {
  for (const callback of callbacks) {
    try {
      await callback()
    } catch (err) {
      // The write is committed: a failing side effect is logged, it never turns the write into an error.
      payload.logger.error({ err }, 'A side effect after commit failed; the write itself is saved')
    }
  }
}

/** Wraps the adapter's commit and rollback once per adapter (idempotent). Called by cwaPlugin's onInit. */
export function installAfterCommit(payload: Payload): void {
  const db: TransactionAdapter = payload.db
  if (db[installedMark]) return
  db[installedMark] = true
  const commit = db.commitTransaction
  const rollback = db.rollbackTransaction
  db.commitTransaction = async function (this: TransactionAdapter, incoming?: unknown) {
    const id = await resolveId(incoming)
    // Derived data for everything the transaction changed, written in it: a failure here rolls the write back.
    if (id !== null) await flushBeforeCommit(id)
    await commit.call(this, id ?? incoming)
    if (id === null) return
    const entry = pending.get(id)
    pending.delete(id)
    if (entry) await runAll(entry.payload, entry.callbacks)
  }
  db.rollbackTransaction = async function (this: TransactionAdapter, incoming?: unknown) {
    const id = await resolveId(incoming)
    if (id !== null) {
      pending.delete(id)
      beforeCommitWork.delete(id)
    }
    await rollback.call(this, id ?? incoming)
  }
}

/**
 * Runs `fn` after the request's transaction commits (in the order queued,
 * each awaited, errors logged), or at once when no transaction is open on
 * `req` (its writes are already committed).
 */
export async function afterCommit(req: PayloadRequest, fn: AfterCommitCallback): Promise<void> {
  const db: TransactionAdapter = req.payload.db
  const id = await resolveId(req.transactionID)
  if (id !== null && db[installedMark] && db.sessions?.[id]) {
    const entry = pending.get(id) ?? { payload: req.payload, callbacks: [] }
    entry.callbacks.push(fn)
    pending.set(id, entry)
    return
  }
  await runAll(req.payload, [fn])
}

/**
 * Queues `item` under `key` for work that belongs in the request's
 * transaction but is cheaper once for all it changed (derived data such as
 * the positions' titles after fifty blocks are published): `flush` runs once
 * per key with every item queued, in the transaction, just before it
 * commits. Without an open transaction it runs at once with this item.
 */
export async function beforeCommit<T>(
  req: PayloadRequest,
  key: string,
  item: T,
  flush: (items: T[]) => Promise<void>,
): Promise<void> {
  const db: TransactionAdapter = req.payload.db
  const id = await resolveId(req.transactionID)
  if (id === null || !db[installedMark] || !db.sessions?.[id]) return flush([item])
  let work = beforeCommitWork.get(id)
  if (!work) beforeCommitWork.set(id, (work = new Map()))
  const entry = work.get(key) ?? { items: [], flush: flush as (items: unknown[]) => Promise<void> }
  entry.items.push(item)
  work.set(key, entry)
}

import type { Payload, PayloadRequest } from 'payload'
import { violation, ViolationError } from '../../hydra/errors.js'
import type { Doc, PublishContext } from './context.js'
import { inTransaction } from './events.js'
import { publish } from './publish.js'
import { loadMany, lockFamilies } from './records.js'
import { publicationState, twinOf } from './state.js'
import { publishViolations } from './validation.js'

/**
 * Beyond the contract: publishes many drafts at once, all or nothing, with
 * one round of events after the commit. Each entry must name a draft (with or
 * without a twin, scheduled or not) of a publishable type; anything else
 * refuses the whole request with a violation on its index.
 */
export async function publishMany(
  payload: Payload,
  req: PayloadRequest,
  drafts: Array<{ ctx: Omit<PublishContext, 'payload' | 'req'>; id: string; index: number }>,
): Promise<Doc[]> {
  const first = drafts[0]
  if (!first) return []
  const base: PublishContext = { ...first.ctx, payload, req }
  return inTransaction(base, async () => {
    const now = new Date()
    const bad = (index: number, message: string) =>
      new ViolationError([violation(`iris[${index}]`, message, 'not_a_draft')])
    const entries = drafts.map((entry) => ({ ...entry, ctx: { ...entry.ctx, payload, req } as PublishContext }))
    // Lock every family first, in one fixed order, so two bulk requests cannot deadlock.
    const before = await loadAll(entries)
    const families: string[] = []
    for (const entry of entries) {
      const draft = before.get(key(entry))
      if (!draft) throw bad(entry.index, 'No such draft.')
      families.push(`${entry.ctx.slug}:${twinOf(draft, entry.ctx.names) ?? entry.id}`)
    }
    await lockFamilies(base, families)
    // Read again under the locks: a family may have moved on before they were granted.
    const locked = await loadAll(entries)
    const done = new Set<string>()
    const out: Doc[] = []
    for (const entry of entries) {
      const current = locked.get(key(entry))
      // Named twice: the first publish made it live (or handed it to its twin).
      if (!current || done.has(key(entry)) || publicationState(current, entry.ctx.names, now) === 'published')
        throw bad(entry.index, 'This is not a draft.')
      done.add(key(entry))
      const violations = publishViolations(entry.ctx, current)
      if (violations.length > 0) {
        throw new ViolationError(
          violations.map((v) => ({ ...v, propertyPath: `iris[${entry.index}].${v.propertyPath}` })),
        )
      }
      out.push(await publish(entry.ctx, current, now.toISOString()))
    }
    return out
  })
}

const key = (entry: { ctx: PublishContext; id: string }) => `${entry.ctx.slug}:${entry.id}`

/** The stored rows of many records, one query per type (a publish of many blocks reads them together). */
async function loadAll(entries: Array<{ ctx: PublishContext; id: string }>): Promise<Map<string, Doc>> {
  const bySlug = new Map<string, { ctx: PublishContext; ids: string[] }>()
  for (const entry of entries) {
    const group = bySlug.get(entry.ctx.slug) ?? { ctx: entry.ctx, ids: [] }
    group.ids.push(entry.id)
    bySlug.set(entry.ctx.slug, group)
  }
  const out = new Map<string, Doc>()
  for (const [slug, { ctx, ids }] of bySlug) {
    for (const doc of await loadMany(ctx, ids)) out.set(`${slug}:${String(doc.id)}`, doc)
  }
  return out
}

import type { HydraContext } from '../../hydra/context.js'
import { boundComponent } from '../contentModel/index.js'
import type { JsonLdObject } from '../../hydra/extension.js'
import type { Doc } from '../../hydra/store.js'
import { passes } from '../../core/roles.js'
import { relationCollection, relationId } from '../../core/utils/relations.js'
import { draftKey, pendingDrafts, readMode, type RecordRef } from '../publishable/index.js'

/**
 * A position's `component` names the draft, for callers who may see drafts,
 * as the seed back end's position normalizer does. The module keeps each
 * answer under the `@id` it returns: reading the published IRI gives such a
 * caller the draft (another `@id`), so nothing was kept under the published
 * IRI and the block rendered empty outside edit mode. Named by the draft, it
 * reads the draft, then follows `publishedResource?published=true` for the
 * live version, and holds both. Anonymous callers are served the published
 * IRI as before.
 */

const MEMO = 'compat:draftComponents'

type Drafts = Map<string, string | null>

/** Positions name drafts for a caller who may see them, reading the default version (not `?published=true`). */
const namesDrafts = (ctx: HydraContext) =>
  readMode(ctx.query) !== 'published' && passes(ctx.options.publishable.permission, ctx.user, ctx.options.roleHierarchy)

const memoOf = (ctx: HydraContext): Drafts => {
  let memo = ctx.memo.get(MEMO) as Drafts | undefined
  if (!memo) ctx.memo.set(MEMO, (memo = new Map()))
  return memo
}

/** Looks the drafts of these components up in one query and keeps the answers (null: no draft). */
async function lookUp(refs: RecordRef[], ctx: HydraContext): Promise<void> {
  const memo = memoOf(ctx)
  const wanted = refs.filter((ref) => !memo.has(draftKey(ref.slug, ref.id)))
  if (wanted.length === 0) return
  const found = await pendingDrafts(ctx.payload, wanted, ctx.req)
  for (const ref of wanted) memo.set(draftKey(ref.slug, ref.id), found.get(draftKey(ref.slug, ref.id)) ?? null)
}

/** Before a batch of positions is normalized: the drafts of every component they show, in one query. */
export async function prepareDraftComponents(docs: Doc[], ctx: HydraContext): Promise<void> {
  if (!namesDrafts(ctx)) return
  const refs: RecordRef[] = []
  for (const doc of docs) {
    const bound = await boundComponent(doc, ctx)
    if (bound) refs.push(bound)
    const slug = relationCollection(doc.component)
    const id = relationId(doc.component)
    if (slug && id) refs.push({ slug, id })
  }
  await lookUp(refs, ctx)
}

/** A position's `component` (as served, after a bound position was resolved) names its draft when it has one. */
export async function pointAtDraft(item: JsonLdObject, ctx: HydraContext): Promise<void> {
  if (typeof item.component !== 'string' || !namesDrafts(ctx)) return
  const parsed = ctx.registry.parseIri(item.component)
  if (!parsed?.id) return
  const ref = { slug: parsed.resource.slug, id: parsed.id }
  // A position normalized without its batch (prepareItems) is looked up alone.
  await lookUp([ref], ctx)
  const draft = memoOf(ctx).get(draftKey(ref.slug, ref.id))
  if (draft) item.component = ctx.registry.itemIri(ref.slug, draft)
}

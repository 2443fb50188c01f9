import type { Payload, PayloadRequest } from 'payload'
import { getRegistry } from '../../core/registry.js'
import { publishableOf } from './config.js'
import type { PublishContext } from './context.js'
import { findDraft } from './records.js'
import { moveReferences } from './references.js'

/**
 * The state machine's rule for a published record deleted by any API
 * (JSON-LD, Payload REST, admin, Local API): its draft, if any, holds the
 * pending content and takes over its references (positions, page data
 * properties). Returns the draft's id, or null when there is none (or the
 * type is not publishable). Runs in the request's transaction.
 */
export async function draftTakesOver(
  payload: Payload,
  req: PayloadRequest,
  slug: string,
  publishedId: string,
): Promise<string | null> {
  const resource = getRegistry(payload.config).bySlug(slug)
  const names = resource ? publishableOf(resource) : null
  if (!resource || !names) return null
  const ctx: PublishContext = {
    payload,
    req,
    slug,
    shortName: resource.meta.shortName,
    names,
    permitted: true,
    system: true,
  }
  const draft = await findDraft(ctx, publishedId)
  if (!draft) return null
  await moveReferences(ctx, publishedId, String(draft.id))
  return String(draft.id)
}

import type { PayloadRequest } from 'payload'
import { emitWriteEvent } from '../../core/events/index.js'
import { getRegistry } from '../../core/registry.js'
import { publishableOf } from './config.js'
import { twinOf } from './state.js'
import { promoteDueDraft } from './stateMachine.js'

type Doc = Record<string, unknown>

/**
 * Publications whose moment came in (since, now]: a scheduled draft with a
 * published twin is promoted now (as the next read would: the twin takes its
 * content, the draft goes), a scheduled record without one is published by
 * its date alone and is announced with a `publish` event. Returns how many.
 * A record whose date was already reached when it was last written went
 * live with that write, which announced it: it is not announced again.
 */
export async function publishDueRecords(req: PayloadRequest, since: Date, now = new Date()): Promise<number> {
  const payload = req.payload
  let count = 0
  for (const resource of getRegistry(payload.config).all()) {
    const names = publishableOf(resource)
    if (!names) continue
    const due = await payload.find({
      collection: resource.slug,
      where: {
        and: [
          { [names.publishedAt]: { greater_than: since.toISOString() } },
          { [names.publishedAt]: { less_than_equal: now.toISOString() } },
        ],
      },
      depth: 0,
      pagination: false,
      overrideAccess: true,
      req,
    })
    for (const doc of due.docs as Doc[]) {
      const id = String(doc.id)
      if (twinOf(doc, names)) {
        const ctx = {
          payload,
          req,
          slug: resource.slug,
          shortName: resource.meta.shortName,
          names,
          permitted: true,
          system: true,
          now,
        }
        if (await promoteDueDraft(ctx, id)) count += 1
      } else if (liveWhenWritten(doc, names.publishedAt)) {
        continue
      } else {
        await emitWriteEvent(req, { type: 'publish', collection: resource.slug, id, doc })
        count += 1
      }
    }
  }
  return count
}

/** Whether a record's publication date had come by its last write (the write published it). */
function liveWhenWritten(doc: Doc, publishedAt: string): boolean {
  const published = Date.parse(String(doc[publishedAt]))
  const written = Date.parse(String(doc.updatedAt))
  return Number.isFinite(published) && Number.isFinite(written) && published <= written
}

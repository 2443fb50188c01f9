import type { HydraExtension } from '../../hydra/extension.js'
import { uploadEndpoints } from './endpoints.js'
import { fieldsOf } from './fields.js'
import { loadInfo, mediaObjectsOf } from './media.js'

/** The uploads feature in the JSON-LD pipeline: its endpoints and `_metadata.mediaObjects`. */
export const uploadsExtension: HydraExtension = {
  name: 'uploads',
  endpoints: (registry) => uploadEndpoints(registry),
  async prepareItems(docs, resource, ctx) {
    const fields = fieldsOf(resource.meta)
    if (fields.length > 0) await loadInfo(docs, fields, ctx)
  },
  async normalizeItem(item, doc, resource, ctx) {
    const fields = fieldsOf(resource.meta)
    if (fields.length === 0) return
    const metadata = (item._metadata as Record<string, unknown> | undefined) ?? {}
    item._metadata = { ...metadata, mediaObjects: await mediaObjectsOf(resource, doc, fields, ctx) }
  },
}

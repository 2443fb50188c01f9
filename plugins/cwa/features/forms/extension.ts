import type { HydraExtension } from '../../hydra/extension.js'
import { formEndpoints } from './endpoints.js'
import { FORMS_SLUG, formViewOf } from './submit.js'

/** formView on every Form item (reads, writes and collection members) and the form endpoints. */
export const formsExtension: HydraExtension = {
  name: 'forms',
  endpoints: formEndpoints,
  async normalizeItem(item, doc, resource, ctx) {
    if (resource.slug !== FORMS_SLUG) return
    item.formView = await formViewOf(ctx, String(doc.id), String(doc.formType))
  },
}

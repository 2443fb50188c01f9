import { currentPageData } from './currentPageData.js'
import type { HydraExtension } from '../../hydra/extension.js'
import { dataFields } from '../../core/registry.js'
import { relationId } from '../../core/utils/relations.js'

/**
 * A position bound to a page data property resolves, at read time, to the
 * component held in that property of the page data named by the `path`
 * request header.
 */
export const resolveDynamicPosition: NonNullable<HydraExtension['normalizeItem']> = async (
  item,
  doc,
  resource,
  ctx,
) => {
  if (resource.slug !== 'component_positions' || !doc.pageDataClass || !doc.pageDataProperty) return
  const current = await currentPageData(ctx)
  if (!current || current.resource.meta.shortName !== doc.pageDataClass) return
  const property = String(doc.pageDataProperty)
  const field = dataFields(current.resource.collection.fields).find((f) => f.name === property)
  const id = relationId(current.doc[property])
  if (field?.type === 'relationship' && typeof field.relationTo === 'string' && id) {
    item.component = ctx.registry.itemIri(field.relationTo, id)
  }
}

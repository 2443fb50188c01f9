import type { HydraContext } from '../../hydra/context.js'
import type { HydraExtension } from '../../hydra/extension.js'
import { dataFields } from '../../core/registry.js'
import { relationId } from '../../core/utils/relations.js'
import { currentPageData } from './currentPageData.js'

type Doc = Record<string, unknown>

/**
 * The component a position bound to a page data property shows: the one
 * held in that property of the page data named by the `path` request
 * header; null when the position is not bound, or the header names no page
 * data of its class, or the property holds none.
 */
export async function boundComponent(position: Doc, ctx: HydraContext): Promise<{ slug: string; id: string } | null> {
  if (!position.pageDataClass || !position.pageDataProperty) return null
  const current = await currentPageData(ctx)
  if (!current || current.resource.meta.shortName !== position.pageDataClass) return null
  const property = String(position.pageDataProperty)
  const field = dataFields(current.resource.collection.fields).find((f) => f.name === property)
  const id = relationId(current.doc[property])
  return field?.type === 'relationship' && typeof field.relationTo === 'string' && id
    ? { slug: field.relationTo, id }
    : null
}

/** A position bound to a page data property resolves, at read time, to the component it shows (boundComponent). */
export const resolveDynamicPosition: NonNullable<HydraExtension['normalizeItem']> = async (
  item,
  doc,
  resource,
  ctx,
) => {
  if (resource.slug !== 'component_positions') return
  const bound = await boundComponent(doc, ctx)
  if (bound) item.component = ctx.registry.itemIri(bound.slug, bound.id)
}

import type { HydraContext } from '../../hydra/context.js'
import type { JsonLdOutput } from '../../hydra/endpoint.js'
import { dataFields, type Resource } from '../../core/registry.js'

/**
 * GET /_/page_data_metadatas: each page data type with its component-typed
 * properties and the short name of the component each holds, so a front
 * end can offer "bind this position to the page's htmlContent" (a position's
 * pageDataClass and pageDataProperty). Built from the registry: no query.
 */
export function componentProperties(
  resource: Resource,
  ctx: Pick<HydraContext, 'registry'>,
): Array<{ property: string; componentShortName: string }> {
  const out: Array<{ property: string; componentShortName: string }> = []
  for (const field of dataFields(resource.collection.fields)) {
    if (field.type !== 'relationship' || typeof field.relationTo !== 'string' || field.hasMany) continue
    const target = ctx.registry.bySlug(field.relationTo)
    if (target?.meta.kind === 'component') out.push({ property: field.name, componentShortName: target.meta.shortName })
  }
  return out
}

/** The collection of page data metadata, a Hydra collection in an inline context (the serializer's output). */
export function pageDataMetadataCollection(ctx: HydraContext): JsonLdOutput {
  const prefix = ctx.options.apiPrefix
  const base = `${prefix}/_/page_data_metadatas`
  const member = ctx.registry.ofKind('pageData').map((resource) => {
    const id = `${base}/${resource.meta.shortName}`
    return {
      '@id': id,
      '@type': 'PageDataMetadata',
      resourceClass: resource.meta.shortName,
      resourceIri: resource.collectionIri,
      properties: componentProperties(resource, ctx).map(({ property, componentShortName }) => ({
        '@id': `${id}#${property}`,
        '@type': 'PageDataPropertyMetadata',
        property,
        componentShortName,
      })),
    }
  })
  return {
    type: 'hydra:Collection',
    id: base,
    context: {
      terms: {
        '@vocab': `${prefix}/docs.jsonld#`,
        hydra: 'http://www.w3.org/ns/hydra/core#',
        member: 'hydra:member',
        totalItems: 'hydra:totalItems',
        properties: 'PageDataMetadata/properties',
      },
    },
    data: { totalItems: member.length, member },
  }
}

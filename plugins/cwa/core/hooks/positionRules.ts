import { type CollectionBeforeValidateHook, ValidationError } from 'payload'
import { dataFields, getRegistry } from '../registry.js'
import { relationCollection, relationId } from '../utils/relations.js'
import type { CoreContext } from '../context.js'

type Violation = { path: string; message: string }

/**
 * Write rules of a component position:
 * - pageDataClass and pageDataProperty are set together or not at all;
 * - the class is a known page data type and the property is component-typed;
 * - the group's allowedComponents (when set) permits the resolved type;
 * - an explicit-allow-only component goes only where a group names it.
 */
export const positionRulesHook =
  (_ctx: CoreContext): CollectionBeforeValidateHook =>
  async ({ data, originalDoc, req }) => {
    const merged = { ...(originalDoc ?? {}), ...(data ?? {}) } as Record<string, unknown>
    const registry = getRegistry(req.payload.config)
    const errors: Violation[] = []
    const pageDataClass = emptyToNull(merged.pageDataClass)
    const pageDataProperty = emptyToNull(merged.pageDataProperty)

    // Component types this position can show, with the property a violation goes on:
    // the type a binding resolves to, and the stored component (also the fallback of a binding).
    const candidates: Array<{ slug: string; path: 'component' | 'pageDataProperty' }> = []
    if ((pageDataClass === null) !== (pageDataProperty === null)) {
      const message = 'pageDataClass and pageDataProperty must be set together or not at all.'
      errors.push({ path: pageDataClass === null ? 'pageDataClass' : 'pageDataProperty', message })
    } else if (pageDataClass !== null && pageDataProperty !== null) {
      const pageData = typeof pageDataClass === 'string' ? registry.byShortName(pageDataClass) : undefined
      if (!pageData || pageData.meta.kind !== 'pageData') {
        errors.push({ path: 'pageDataClass', message: `"${String(pageDataClass)}" is not a page data resource.` })
      } else {
        const field = dataFields(pageData.collection.fields).find((f) => f.name === pageDataProperty)
        const target =
          field && field.type === 'relationship' && typeof field.relationTo === 'string' && !field.hasMany
            ? registry.bySlug(field.relationTo)
            : undefined
        if (!target || target.meta.kind !== 'component') {
          errors.push({
            path: 'pageDataProperty',
            message: `"${String(pageDataProperty)}" is not a component property of ${pageDataClass}.`,
          })
        } else {
          candidates.push({ slug: target.slug, path: 'pageDataProperty' })
        }
      }
    }
    const componentSlug = relationId(merged.component) ? relationCollection(merged.component) : null
    if (componentSlug) candidates.push({ slug: componentSlug, path: 'component' })

    const groupId = relationId(merged.componentGroup)
    if (errors.length === 0 && candidates.length > 0 && groupId) {
      const group = await req.payload
        .findByID({
          collection: 'component_groups',
          id: groupId,
          depth: 0,
          req,
          disableErrors: true,
          select: { allowedComponents: true },
        })
        .catch(() => null)
      // Stored canonical (older rows: with the API prefix): compared by the type they name.
      const allowed = (((group as { allowedComponents?: unknown } | null)?.allowedComponents ?? []) as unknown[])
        .map((iri) => registry.parseIri(iri)?.resource.collectionIri)
        .filter((iri): iri is string => iri !== undefined)
      for (const { slug, path } of candidates) {
        const component = registry.bySlug(slug)
        if (!component) continue
        if (allowed.length > 0 && !allowed.includes(component.collectionIri)) {
          errors.push({ path, message: `${component.meta.shortName} is not allowed in this component group.` })
        } else if (component.meta.explicitAllowOnly && !allowed.includes(component.collectionIri)) {
          errors.push({
            path,
            message: `${component.meta.shortName} can only be added to groups that name it in allowedComponents.`,
          })
        }
      }
    }

    if (errors.length > 0) throw new ValidationError({ errors })
    return data
  }

function emptyToNull(value: unknown): unknown {
  return value === undefined || value === '' ? null : value
}

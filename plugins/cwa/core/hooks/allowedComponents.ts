import { type CollectionBeforeValidateHook, ValidationError } from 'payload'
import { getRegistry } from '../registry.js'
import type { CoreContext } from '../context.js'

/**
 * allowedComponents holds component collection IRIs, or null (no list). Each
 * one must name a known component type; they are stored in the canonical
 * form (`/component/html_contents`, registry.canonicalIri) whatever form the
 * client sent, and served in the form of every other IRI. null stays null
 * and an empty list stays an empty list.
 */
export const allowedComponentsHook =
  (_ctx: CoreContext): CollectionBeforeValidateHook =>
  ({ data, req }) => {
    const list = data?.allowedComponents
    if (list == null) return data
    if (!Array.isArray(list)) {
      throw new ValidationError({
        errors: [
          { path: 'allowedComponents', message: 'allowedComponents must be a list of component collection IRIs.' },
        ],
      })
    }
    const registry = getRegistry(req.payload.config)
    const normalized: string[] = []
    for (const entry of list as unknown[]) {
      const parsed = registry.parseIri(entry)
      if (!parsed || parsed.id || parsed.resource.meta.kind !== 'component') {
        throw new ValidationError({
          errors: [{ path: 'allowedComponents', message: `"${String(entry)}" is not a component collection IRI.` }],
        })
      }
      normalized.push(registry.canonicalIri(entry)!)
    }
    return { ...data, allowedComponents: [...new Set(normalized)] }
  }

import type { ResourceRegistry } from '../../core/registry.js'

/**
 * The cache tags of a JSON-LD body: every resource IRI it contains (the
 * items' own `@id`, embedded items, references, a collection's IRI), in the
 * order met. A cached response tagged with an IRI is purged when that
 * resource changes, so a page holding a changed component goes too.
 */
export function cacheTagsOf(body: unknown, registry: ResourceRegistry): string[] {
  const tags = new Set<string>()
  const prefix = registry.apiPrefix
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return
    if (typeof value === 'string') {
      // Only paths under the prefix that name a resource or one of its items (a page of a collection view is not a tag).
      if (!tags.has(value) && value.startsWith(`${prefix}/`) && !value.includes('?') && registry.parseIri(value))
        tags.add(value)
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1)
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) visit(item, depth + 1)
    }
  }
  visit(body, 0)
  return [...tags]
}

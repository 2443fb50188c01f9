import type { Field, SanitizedCollectionConfig, SanitizedConfig } from 'payload'
import { getCwaMeta, type CwaResourceMeta } from './types.js'
import type { ResolvedCwaOptions } from './options.js'

/** One resource of the JSON-LD API: a Payload collection plus its CWA metadata. */
export interface Resource {
  slug: string
  meta: CwaResourceMeta
  collection: SanitizedCollectionConfig
  /** IRI of the resource's collection, API prefix included. */
  collectionIri: string
}

export interface ParsedIri {
  resource: Resource
  id?: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}

/**
 * The resource registry, rebuilt from the Payload config (every collection
 * carrying `custom.cwa`). One instance per config.
 */
export class ResourceRegistry {
  readonly apiPrefix: string
  private readonly bySlugMap = new Map<string, Resource>()
  private readonly byShortNameMap = new Map<string, Resource>()
  private readonly byPathMap = new Map<string, Resource>()

  constructor(config: Pick<SanitizedConfig, 'collections'>, apiPrefix: string) {
    this.apiPrefix = apiPrefix
    for (const collection of config.collections) {
      const meta = getCwaMeta(collection)
      if (!meta) continue
      const path = `${meta.pathPrefix}/${meta.segment}`
      const resource: Resource = { slug: collection.slug, meta, collection, collectionIri: `${apiPrefix}${path}` }
      this.bySlugMap.set(collection.slug, resource)
      this.byShortNameMap.set(meta.shortName, resource)
      this.byPathMap.set(path, resource)
    }
  }

  all(): Resource[] {
    return [...this.bySlugMap.values()]
  }

  ofKind(kind: CwaResourceMeta['kind']): Resource[] {
    return this.all().filter((r) => r.meta.kind === kind)
  }

  bySlug(slug: string): Resource | undefined {
    return this.bySlugMap.get(slug)
  }

  byShortName(name: string): Resource | undefined {
    return this.byShortNameMap.get(name)
  }

  /** Path relative to the API prefix, e.g. `/component/html_contents`. */
  byPath(path: string): Resource | undefined {
    return this.byPathMap.get(path)
  }

  itemIri(resourceOrSlug: Resource | string, id: string | number): string {
    const resource = typeof resourceOrSlug === 'string' ? this.bySlug(resourceOrSlug) : resourceOrSlug
    if (!resource) throw new Error(`Unknown resource ${String(resourceOrSlug)}`)
    return `${resource.collectionIri}/${id}`
  }

  /**
   * The stored form of an IRI a client sent (a group's allowedComponents, a
   * Collection's resourceIri): its path under the API prefix
   * (`/component/html_contents`), whatever form it came in (with or without
   * the prefix, absolute, trailing slash). Null when it names no resource.
   * Output goes through `outputIri`, so a stored value never reaches a
   * client in the form it was stored in.
   */
  canonicalIri(iri: unknown): string | null {
    const parsed = this.parseIri(iri)
    if (!parsed) return null
    const path = `${parsed.resource.meta.pathPrefix}/${parsed.resource.meta.segment}`
    return parsed.id ? `${path}/${parsed.id}` : path
  }

  /** The form a stored IRI (canonical, or an older prefixed value) is served in: the same as every @id. */
  outputIri(stored: unknown): unknown {
    const parsed = this.parseIri(stored)
    if (!parsed) return stored
    return parsed.id ? this.itemIri(parsed.resource, parsed.id) : parsed.resource.collectionIri
  }

  /**
   * Parses a collection or item IRI, with or without the API prefix, relative
   * or absolute. Returns null when it names no known resource.
   */
  parseIri(iri: unknown): ParsedIri | null {
    if (typeof iri !== 'string' || iri.length === 0 || iri.length > 2048) return null
    let path = iri
    if (/^https?:\/\//i.test(path)) {
      try {
        path = new URL(path).pathname
      } catch {
        return null
      }
    }
    path = path.split(/[?#]/)[0]!.replace(/\/+$/, '')
    if (this.apiPrefix && (path === this.apiPrefix || path.startsWith(`${this.apiPrefix}/`))) {
      path = path.slice(this.apiPrefix.length)
    }
    const collectionMatch = this.byPath(path)
    if (collectionMatch) return { resource: collectionMatch }
    const slash = path.lastIndexOf('/')
    if (slash <= 0) return null
    const resource = this.byPath(path.slice(0, slash))
    const id = path.slice(slash + 1)
    if (!resource || !isUuid(id)) return null
    return { resource, id: id.toLowerCase() }
  }
}

const cache = new WeakMap<object, ResourceRegistry>()

/** The registry of a sanitized config (cached). */
export function getRegistry(config: SanitizedConfig): ResourceRegistry {
  let registry = cache.get(config)
  if (!registry) {
    registry = new ResourceRegistry(config, getOptions(config).apiPrefix)
    cache.set(config, registry)
  }
  return registry
}

/** The resolved plugin options stored on the config by cwaPlugin. */
export function getOptions(config: Pick<SanitizedConfig, 'custom'>): ResolvedCwaOptions {
  const options = (config.custom as { cwa?: { options?: ResolvedCwaOptions } } | undefined)?.cwa?.options
  if (!options) throw new Error('cwaPlugin is not installed in this Payload config')
  return options
}

/** Top-level data fields of a collection, in declaration order (tabs/rows flattened). */
export function dataFields(fields: Field[]): Array<Field & { name: string }> {
  const out: Array<Field & { name: string }> = []
  for (const field of fields) {
    if ('name' in field && field.name) {
      out.push(field as Field & { name: string })
    } else if (field.type === 'row' || field.type === 'collapsible') {
      out.push(...dataFields(field.fields))
    } else if (field.type === 'tabs') {
      for (const tab of field.tabs) {
        if ('name' in tab && tab.name) continue // named tabs are groups; not used by CWA types
        out.push(...dataFields(tab.fields))
      }
    }
  }
  return out
}

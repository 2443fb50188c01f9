import type { PaginatedDocs } from 'payload'
import type { HydraContext } from './context.js'
/** A JSON-LD object (the same as extension.ts's JsonLdObject, which this module cannot import: extension.ts leads here). */
type JsonLdObject = Record<string, unknown>
import type { Resource } from '../core/registry.js'
import { brand, brandedInstanceOf } from '../core/utils/brand.js'

type Doc = Record<string, unknown>

/**
 * Records a handler or a hook hands to the pipeline instead of JSON-LD: the
 * pipeline (pipeline/format.ts) normalizes them, so that no feature calls
 * the normalizer and every IRI of an answer is written in one place.
 */

/** An endpoint's answer that is one record (`EndpointResult.item`). */
export interface ItemAnswer {
  resource: Resource
  doc: Doc
  /** Its batch was prepared already, or there is nothing stored to prepare (a built-in form): prepareItems is not run. */
  prepared?: boolean
  /**
   * Properties written after the item's own (a 422's `violations`, a route's `redirectedFrom`); an object for a
   * property the item holds as an object joins it (a `_metadata` entry).
   */
  with?: JsonLdObject
}

/** An endpoint's answer that is a page of a resource's collection (`EndpointResult.collection`). */
export interface CollectionAnswer {
  resource: Resource
  page: PaginatedDocs<Doc>
  /** Whether its view has first/last/previous/next (a paginated read). */
  paginated: boolean
}

/**
 * A record inside a node's data (a publish result's members): normalized
 * where it stands, without `@context`; or a whole item document, as an
 * endpoint answers it (`document`: a form listener's created user).
 */
export class EmbeddedItem {
  constructor(
    readonly resource: Resource,
    readonly doc: Doc,
    readonly document: ItemAnswer | null = null,
  ) {
    brand(this, 'EmbeddedItem')
  }

  // Another copy of the package makes them too (core/utils/brand.ts).
  static [Symbol.hasInstance](value: unknown): boolean {
    return brandedInstanceOf(this, EmbeddedItem, 'EmbeddedItem', value)
  }
}

/** The normalization of an embedded page, shared by every place that embeds it (one read, one normalization). */
interface SharedPage {
  resource: Resource
  page: PaginatedDocs<Doc>
  ctx: HydraContext
  normalized?: Promise<JsonLdObject>
}

/**
 * A collection page inside an item (a Collection component's proxied
 * `collection`), normalized with the context it was read in, its `view`
 * replaced when the embedding item pages through it itself.
 */
export class EmbeddedCollection {
  constructor(
    private readonly shared: SharedPage,
    readonly view?: JsonLdObject,
  ) {
    brand(this, 'EmbeddedCollection')
  }

  // Another copy of the package makes them too (core/utils/brand.ts).
  static [Symbol.hasInstance](value: unknown): boolean {
    return brandedInstanceOf(this, EmbeddedCollection, 'EmbeddedCollection', value)
  }

  /** The same page, with the view of the item that embeds it. */
  withView(view: JsonLdObject): EmbeddedCollection {
    return new EmbeddedCollection(this.shared, view)
  }

  /** Its normalized collection (once, whoever embeds it), given the pipeline's normalizer. */
  normalized(
    normalize: (resource: Resource, page: PaginatedDocs<Doc>, ctx: HydraContext) => Promise<JsonLdObject>,
  ): Promise<JsonLdObject> {
    this.shared.normalized ??= normalize(this.shared.resource, this.shared.page, this.shared.ctx)
    return this.shared.normalized
  }
}

/** A record to embed in a node's data, normalized by the pipeline. */
export const embedItem = (resource: Resource, doc: Doc): EmbeddedItem => new EmbeddedItem(resource, doc)

/** An item answer handed on as a body of another answer (a form listener's result): the item document, `@context` first. */
export const embedDocument = (answer: ItemAnswer): EmbeddedItem => new EmbeddedItem(answer.resource, answer.doc, answer)

/** A paginated page to embed in an item, normalized by the pipeline with `ctx` (the read's own). */
export const embedCollection = (resource: Resource, page: PaginatedDocs<Doc>, ctx: HydraContext): EmbeddedCollection =>
  new EmbeddedCollection({ resource, page, ctx })

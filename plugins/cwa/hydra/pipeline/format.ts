import type { HydraContext } from '../context.js'
import { EmbeddedCollection, EmbeddedItem, type ItemAnswer } from '../embedded.js'
import type { EndpointResult } from '../endpoint.js'
import { normalizeCollection, normalizeItem } from '../normalizer.js'
import { serialize } from '../serializer.js'

/**
 * The format half of running an endpoint: what a handler returned (data)
 * made the JSON-LD body, in one place. An item or a collection page is
 * normalized here, a node serialized, and the records embedded in either
 * (embedded.ts) normalized where they stand; no feature calls the normalizer.
 *
 * The same walk records the resources the answer names: every IRI of the
 * body (an item's own `@id`, embedded items, references, a collection's
 * IRI) in the order met. They are the HTTP cache's tags and the read
 * model's (nothing reads the body again for them).
 */

/** A JSON-LD body, the resource IRIs it names, and every string under the API prefix it holds. */
export interface FormattedBody {
  /** undefined for a raw body or no content. */
  json: unknown
  tags: string[]
  /** For the profiles, which load what they need to write them in one go (serve.ts). */
  apiPaths: Set<string>
}

/** Deeper than this, a string is not looked at for a tag (as deep as any answer nests, with room to spare). */
const MAX_TAG_DEPTH = 64

/** The JSON-LD body of a result, its embedded records normalized, and the IRIs it names. */
export async function formatBody(ctx: HydraContext, result: EndpointResult): Promise<FormattedBody> {
  let json: unknown
  if (result.item) {
    json = await itemDocument(ctx, result.item)
  } else if (result.collection) {
    const { resource, page, paginated } = result.collection
    json = await normalizeCollection(resource, page, ctx, paginated)
  } else if (result.output) {
    json = serialize(ctx.options.apiPrefix, result.output)
  } else if (result.body !== undefined) {
    json = result.body
  } else {
    return { json: undefined, tags: [], apiPaths: new Set() }
  }
  const seen: Seen = { tags: new Set(), apiPaths: new Set() }
  json = await resolve(json, ctx, seen, 0)
  return { json, tags: [...seen.tags], apiPaths: seen.apiPaths }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** An item with properties written after its own; an object for a property it holds as an object joins it (`_metadata`). */
function withProperties(item: Record<string, unknown>, also: Record<string, unknown>): Record<string, unknown> {
  const out = { ...item }
  for (const [key, value] of Object.entries(also))
    out[key] = isRecord(out[key]) && isRecord(value) ? { ...out[key], ...value } : value
  return out
}

/** An item answer's JSON-LD document: its batch prepared (unless it was), normalized, `@context` first. */
async function itemDocument(ctx: HydraContext, answer: ItemAnswer): Promise<Record<string, unknown>> {
  const { resource, doc, prepared, with: also } = answer
  const item = await normalizeItem(resource, doc, ctx, prepared ? { prepared } : {})
  return also ? withProperties(item, also) : item
}

/** What the walk records: the resource IRIs (tags) and every string under the prefix (apiPaths). */
interface Seen {
  tags: Set<string>
  apiPaths: Set<string>
}

/** A string under the prefix; a tag when it names a resource or one of its items (no page of a view). */
function record(text: string, ctx: HydraContext, seen: Seen, depth: number): void {
  if (!text.startsWith(`${ctx.registry.apiPrefix}/`)) return
  seen.apiPaths.add(text)
  if (depth <= MAX_TAG_DEPTH && !seen.tags.has(text) && !text.includes('?') && ctx.registry.parseIri(text))
    seen.tags.add(text)
}

async function resolve(value: unknown, ctx: HydraContext, seen: Seen, depth: number): Promise<unknown> {
  if (typeof value === 'string') {
    record(value, ctx, seen, depth)
    return value
  }
  if (value instanceof EmbeddedItem) {
    const item = value.document
      ? await itemDocument(ctx, value.document)
      : await normalizeItem(value.resource, value.doc, ctx, { withContext: false })
    return resolve(item, ctx, seen, depth)
  }
  if (value instanceof EmbeddedCollection) {
    const normalized = await value.normalized((resource, page, inner) =>
      normalizeCollection(resource, page, inner, true),
    )
    return resolve(value.view ? { ...normalized, view: value.view } : { ...normalized }, ctx, seen, depth)
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const entry: unknown = value[index]
      const out = await resolve(entry, ctx, seen, depth + 1)
      if (out !== entry) value[index] = out
    }
    return value
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const entry = record[key]
      const out = await resolve(entry, ctx, seen, depth + 1)
      if (out !== entry) record[key] = out
    }
  }
  return value
}

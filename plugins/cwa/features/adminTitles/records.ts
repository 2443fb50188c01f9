/**
 * Server side of the library's admin views: records named for an editor
 * (title, type in words, dates, the link to their edit view), read with the
 * editor's own access through the Local API, one query per collection.
 * Here, with the titles they show, for every feature's admin view (the admin
 * feature's start panel, the route tree, the orphan report): the orphan
 * report importing them from the admin feature, which imports the orphans
 * feature's cascade, made the two features a cycle.
 */
import type { CollectionSlug, PayloadRequest } from 'payload'
import { typeIconOf, type TypeIconName } from '../../core/admin/typeIcons.js'
import { getRegistry } from '../../core/registry.js'
import { getCwaMeta } from '../../core/types.js'
import { TITLE_FIELD } from './positions.js'

type Doc = Record<string, unknown> & { id: string }

export interface RecordRow {
  iri: string | null
  slug: string
  id: string
  title: string
  /** The type in words (the collection's singular label). */
  type: string
  /** The type's icon (core/admin/typeIcons.ts). */
  icon: TypeIconName
  createdAt: string | null
  updatedAt: string | null
  href: string
  /** False when the record is gone (or hidden from this editor) since the IRI was listed. */
  exists: boolean
  doc?: Doc
}

/** A collection's singular label as a string (labels may be per language). */
export function typeLabel(req: PayloadRequest, slug: string): string {
  const labels = req.payload.collections[slug as CollectionSlug]?.config.labels as { singular?: unknown } | undefined
  const singular = labels?.singular
  if (typeof singular === 'string') return singular
  if (singular && typeof singular === 'object') {
    const byLanguage = singular as Record<string, string>
    return byLanguage[req.i18n?.language ?? 'en'] ?? Object.values(byLanguage)[0] ?? slug
  }
  return slug
}

/** A collection's icon, as the admin shows it beside the type's name. */
export function typeIcon(req: PayloadRequest, slug: string): TypeIconName {
  return typeIconOf(slug, getCwaMeta(req.payload.collections[slug as CollectionSlug]?.config))
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null)

export function describeDoc(req: PayloadRequest, slug: string, doc: Doc): RecordRow {
  const type = typeLabel(req, slug)
  const title =
    text(doc[TITLE_FIELD]) ??
    text(doc.title) ??
    text(doc.reference) ??
    text(doc.path) ??
    `${type} ${String(doc.id).slice(0, 8)}`
  return {
    iri: getRegistry(req.payload.config).bySlug(slug) ? getRegistry(req.payload.config).itemIri(slug, doc.id) : null,
    slug,
    id: String(doc.id),
    title,
    type,
    icon: typeIcon(req, slug),
    createdAt: text(doc.createdAt),
    updatedAt: text(doc.updatedAt),
    href: `${req.payload.config.routes.admin}/collections/${slug}/${doc.id}`,
    exists: true,
    doc,
  }
}

/** Each IRI as a row, in the order given: one read per collection; an IRI whose record is gone is a row with exists: false. */
export async function describeIris(req: PayloadRequest, iris: string[]): Promise<RecordRow[]> {
  const registry = getRegistry(req.payload.config)
  const parsed = iris.map((iri) => ({ iri, parsed: registry.parseIri(iri) }))
  const bySlug = new Map<string, string[]>()
  for (const { parsed: p } of parsed)
    if (p?.id) bySlug.set(p.resource.slug, [...(bySlug.get(p.resource.slug) ?? []), p.id])
  const found = new Map<string, RecordRow>()
  for (const [slug, ids] of bySlug) {
    const { docs } = await req.payload.find({
      collection: slug as CollectionSlug,
      where: { id: { in: ids } },
      depth: 0,
      limit: ids.length,
      pagination: false,
      overrideAccess: false,
      user: req.user,
      req,
    })
    for (const doc of docs as Doc[]) found.set(`${slug}:${doc.id}`, describeDoc(req, slug, doc))
  }
  return parsed.map(({ iri, parsed: p }) => {
    const row = p?.id ? found.get(`${p.resource.slug}:${p.id}`) : undefined
    if (row) return { ...row, iri, doc: undefined }
    const slug = p?.resource.slug ?? ''
    return {
      iri,
      slug,
      id: p?.id ?? '',
      title: iri,
      type: slug ? typeLabel(req, slug) : 'Unknown',
      icon: slug ? typeIcon(req, slug) : 'block',
      createdAt: null,
      updatedAt: null,
      href: '',
      exists: false,
    }
  })
}

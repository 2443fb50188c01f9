/**
 * Issue 38, the database-free tier: a stored document's JSON-LD form (hydra/item.ts) and a collection's
 * PartialCollectionView (hydra/normalizer.ts), on a registry built by hand from two resources. No Payload, no
 * database: what the API tests see through HTTP, rule by rule.
 */
import { describe, expect, it } from '@jest/globals'
import type { Field } from 'payload'
import { ResourceRegistry } from '../../plugins/cwa/dist/core/registry.js'
import { normalizeDocument, normalizeValue, outputFields } from '../../plugins/cwa/dist/hydra/item.js'
import { partialView } from '../../plugins/cwa/dist/hydra/collectionView.js'

const BOOK_ID = '0b7a2c1e-5d4f-4a3b-9c8d-7e6f5a4b3c2d'
const SHELF_ID = '1c8b3d2f-6e5a-4b4c-8d9e-8f7a6b5c4d3e'

const bookFields: Field[] = [
  { name: 'title', type: 'text' },
  { name: 'shelf', type: 'relationship', relationTo: 'shelves' },
  { name: 'related', type: 'relationship', relationTo: 'books', hasMany: true },
  { name: 'placedIn', type: 'relationship', relationTo: ['shelves', 'books'] },
  { name: 'keywords', type: 'text', hasMany: true },
  { name: 'releasedAt', type: 'date' },
  { name: 'allowed', type: 'text', hasMany: true, custom: { cwa: { iri: true } } },
  { name: 'internalNote', type: 'text' },
  { name: 'secret', type: 'text', hidden: true },
  { name: 'token', type: 'text' },
  { name: 'payloadName', type: 'text' },
  { name: 'preview', type: 'ui', admin: { components: {} } } as Field,
  { name: 'password', type: 'text' },
  { name: 'restricted', type: 'text', access: { read: () => false } },
]
const shelfFields: Field[] = [
  { name: 'label', type: 'text' },
  { name: 'books', type: 'join', collection: 'books', on: 'shelf' } as Field,
  { name: 'firstBook', type: 'join', collection: 'books', on: 'shelf', custom: { cwa: { single: true } } } as Field,
]

/** The registry of two resources, as cwaPlugin stores their metadata on their collections (`custom.cwa`). */
const registry = new ResourceRegistry(
  {
    collections: [
      {
        slug: 'books',
        fields: bookFields,
        custom: {
          cwa: {
            kind: 'component',
            shortName: 'Book',
            pathPrefix: '/component',
            segment: 'books',
            timestamped: true,
            hidden: ['internalNote'],
            writeOnly: ['token'],
            aliases: { jsonName: 'payloadName' },
          },
        },
      },
      {
        slug: 'shelves',
        fields: shelfFields,
        custom: { cwa: { kind: 'core', shortName: 'Shelf', pathPrefix: '/_', segment: 'shelves' } },
      },
    ],
  } as never,
  '/_api',
)
const books = registry.bySlug('books')!
const shelves = registry.bySlug('shelves')!
const field = (fields: Field[], name: string) =>
  fields.find((f) => 'name' in f && f.name === name) as Field & {
    name: string
  }

describe('outputFields: what a resource serializes, under which name', () => {
  it("leaves out Payload's own and hidden fields, the resource's hidden and write-only ones and ui fields; aliases rename", () => {
    expect(outputFields(books).map(({ field, json }) => `${field.name}:${json}`)).toEqual([
      'title:title',
      'shelf:shelf',
      'related:related',
      'placedIn:placedIn',
      'keywords:keywords',
      'releasedAt:releasedAt',
      'allowed:allowed',
      'payloadName:jsonName',
      'restricted:restricted',
    ])
  })
})

describe('normalizeValue: one stored value in its JSON-LD form', () => {
  it('a relation becomes the IRI of what it names, by id or populated; none is null', () => {
    const shelf = field(bookFields, 'shelf')
    expect(normalizeValue(shelf, SHELF_ID, registry)).toBe(`/_api/_/shelves/${SHELF_ID}`)
    expect(normalizeValue(shelf, { id: SHELF_ID, label: 'Top' }, registry)).toBe(`/_api/_/shelves/${SHELF_ID}`)
    expect(normalizeValue(shelf, null, registry)).toBeNull()
    expect(normalizeValue(shelf, undefined, registry)).toBeNull()
  })

  it('a relation to many is a list of IRIs, an empty list when nothing is stored', () => {
    const related = field(bookFields, 'related')
    expect(normalizeValue(related, [BOOK_ID, { id: BOOK_ID }], registry)).toEqual([
      `/_api/component/books/${BOOK_ID}`,
      `/_api/component/books/${BOOK_ID}`,
    ])
    expect(normalizeValue(related, null, registry)).toEqual([])
  })

  it('a polymorphic relation names the collection it points into, populated or not', () => {
    const placedIn = field(bookFields, 'placedIn')
    expect(normalizeValue(placedIn, { relationTo: 'shelves', value: SHELF_ID }, registry)).toBe(
      `/_api/_/shelves/${SHELF_ID}`,
    )
    expect(normalizeValue(placedIn, { relationTo: 'books', value: { id: BOOK_ID } }, registry)).toBe(
      `/_api/component/books/${BOOK_ID}`,
    )
    // A collection the API does not serve: the id as stored.
    expect(normalizeValue(placedIn, { relationTo: 'users', value: 'u1' }, registry)).toBe('u1')
  })

  it("a join lists the IRIs of its documents, or the first one's alone (custom.cwa.single), null when none", () => {
    const value = { docs: [{ id: BOOK_ID }, BOOK_ID] }
    expect(normalizeValue(field(shelfFields, 'books'), value, registry)).toEqual([
      `/_api/component/books/${BOOK_ID}`,
      `/_api/component/books/${BOOK_ID}`,
    ])
    expect(normalizeValue(field(shelfFields, 'books'), undefined, registry)).toEqual([])
    expect(normalizeValue(field(shelfFields, 'firstBook'), value, registry)).toBe(`/_api/component/books/${BOOK_ID}`)
    expect(normalizeValue(field(shelfFields, 'firstBook'), { docs: [] }, registry)).toBeNull()
  })

  it('a date is an ISO 8601 instant in UTC, or null', () => {
    const releasedAt = field(bookFields, 'releasedAt')
    expect(normalizeValue(releasedAt, '2026-03-01T10:00:00+02:00', registry)).toBe('2026-03-01T08:00:00.000Z')
    expect(normalizeValue(releasedAt, null, registry)).toBeNull()
    expect(normalizeValue(releasedAt, '', registry)).toBeNull()
  })

  it('a list of text is the list, or an empty list; a scalar is the value or null, never undefined', () => {
    expect(normalizeValue(field(bookFields, 'keywords'), ['a', 'b'], registry)).toEqual(['a', 'b'])
    expect(normalizeValue(field(bookFields, 'keywords'), null, registry)).toEqual([])
    expect(normalizeValue(field(bookFields, 'title'), 'Dune', registry)).toBe('Dune')
    expect(normalizeValue(field(bookFields, 'title'), undefined, registry)).toBeNull()
    expect(normalizeValue(field(bookFields, 'title'), 0 as never, registry)).toBe(0)
  })

  it('IRIs stored as text (custom.cwa.iri) are served with the API prefix, as every @id; other text stays', () => {
    const allowed = field(bookFields, 'allowed')
    expect(normalizeValue(allowed, ['/component/books', `/_api/_/shelves/${SHELF_ID}`, 'free text'], registry)).toEqual(
      ['/_api/component/books', `/_api/_/shelves/${SHELF_ID}`, 'free text'],
    )
    expect(normalizeValue(allowed, '/_/shelves', registry)).toBe('/_api/_/shelves')
    expect(normalizeValue(allowed, null, registry)).toBeNull()
  })
})

describe('normalizeDocument: a stored document in its JSON-LD form', () => {
  const ctx = { registry } as never

  it('@id, @type and id first, then the fields in order, with createdAt and modifiedAt of a timestamped type', () => {
    const doc = {
      id: BOOK_ID,
      title: 'Dune',
      shelf: SHELF_ID,
      related: [],
      placedIn: null,
      keywords: null,
      releasedAt: null,
      allowed: null,
      internalNote: 'not served',
      secret: 'not served',
      token: 'write only',
      payloadName: 'aliased',
      password: 'never',
      restricted: 'readable here',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
    }
    const item = normalizeDocument(books, doc, ctx)
    expect(Object.keys(item)).toEqual([
      '@id',
      '@type',
      'id',
      'title',
      'shelf',
      'related',
      'placedIn',
      'keywords',
      'releasedAt',
      'allowed',
      'jsonName',
      'restricted',
      'createdAt',
      'modifiedAt',
    ])
    expect(item).toMatchObject({
      '@id': `/_api/component/books/${BOOK_ID}`,
      '@type': 'Book',
      id: BOOK_ID,
      shelf: `/_api/_/shelves/${SHELF_ID}`,
      keywords: [],
      jsonName: 'aliased',
      createdAt: '2026-01-01T00:00:00.000Z',
      modifiedAt: '2026-01-02T00:00:00.000Z',
    })
  })

  it('leaves out a field with read access that the caller did not get, rather than showing it as null', () => {
    const item = normalizeDocument(books, { id: BOOK_ID, title: 'Dune' }, ctx)
    expect(item).not.toHaveProperty('restricted')
    expect(item).toHaveProperty('shelf', null)
  })

  it('a type that is neither timestamped nor page data shows no timestamps', () => {
    const item = normalizeDocument(shelves, { id: SHELF_ID, label: 'Top', createdAt: '2026-01-01T00:00:00.000Z' }, ctx)
    expect(item).toEqual({
      '@id': `/_api/_/shelves/${SHELF_ID}`,
      '@type': 'Shelf',
      id: SHELF_ID,
      label: 'Top',
      books: [],
      firstBook: null,
    })
  })
})

describe('partialView: the view of a collection page', () => {
  const base = '/_api/component/books'
  const page = (page: number, totalPages: number) => ({ page, totalPages, hasNextPage: false, hasPrevPage: false })

  it('a paginated middle page links first, last, previous and next, keeping the other query parameters', () => {
    expect(partialView(base, new URLSearchParams('order[title]=asc&page=2'), page(2, 3), true)).toEqual({
      '@id': `${base}?order%5Btitle%5D=asc&page=2`,
      '@type': 'PartialCollectionView',
      first: `${base}?order%5Btitle%5D=asc&page=1`,
      last: `${base}?order%5Btitle%5D=asc&page=3`,
      previous: `${base}?order%5Btitle%5D=asc&page=1`,
      next: `${base}?order%5Btitle%5D=asc&page=3`,
    })
  })

  it('the first page has no previous, the last no next; an empty collection has one page', () => {
    expect(partialView(base, new URLSearchParams(), page(1, 2), true)).not.toHaveProperty('previous')
    expect(partialView(base, new URLSearchParams(), page(2, 2), true)).not.toHaveProperty('next')
    expect(partialView(base, new URLSearchParams(), page(1, 0), true)).toEqual({
      '@id': `${base}?page=1`,
      '@type': 'PartialCollectionView',
      first: `${base}?page=1`,
      last: `${base}?page=1`,
    })
  })

  it('a page past the last one links back to the last as its previous', () => {
    expect(partialView(base, new URLSearchParams('page=9'), page(9, 3), true)).toMatchObject({
      '@id': `${base}?page=9`,
      previous: `${base}?page=3`,
    })
  })

  it('an unpaginated collection is only its own @id, without a page parameter', () => {
    expect(partialView(base, new URLSearchParams('page=2&search=x'), page(2, 3), false)).toEqual({
      '@id': `${base}?search=x`,
      '@type': 'PartialCollectionView',
    })
    expect(partialView(base, new URLSearchParams(), page(1, 1), false)).toEqual({
      '@id': base,
      '@type': 'PartialCollectionView',
    })
  })
})

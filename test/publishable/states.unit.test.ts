/**
 * Issue 38, the database-free tier: the states of a publishable record (contract: "States and transitions") and the
 * publish validation group, as the publish state machine reads them before any transition; taken from the feature's
 * front door (features/publishable/index.ts). The transitions themselves run in transactions:
 * test/publishable/transitions.test.ts and its neighbours.
 */
import { describe, expect, it } from '@jest/globals'
import {
  isPublished,
  publicationState,
  publishedWhere,
  publishViolations,
  type ResolvedPublishable,
} from '../../plugins/cwa/dist/features/publishable/index.js'

/** The names of the publishable fields, as `publishable: true` resolves them (resolvePublishable). */
const names: ResolvedPublishable = {
  publishedAt: 'publishedAt',
  publishedResource: 'publishedResource',
  draftResource: 'draftResource',
  validationGroups: ['HtmlContent:published'],
  requiredOnPublish: [],
}
const now = new Date('2026-06-01T12:00:00.000Z')
const TWIN = '0b7a2c1e-5d4f-4a3b-9c8d-7e6f5a4b3c2d'

describe('the state of a publishable record', () => {
  it('draft: no publishedAt (null, absent or empty)', () => {
    expect(publicationState({ publishedAt: null }, names, now)).toBe('draft')
    expect(publicationState({}, names, now)).toBe('draft')
    expect(publicationState({ publishedAt: '' }, names, now)).toBe('draft')
  })

  it('scheduled: publishedAt in the future, a twin or not', () => {
    expect(publicationState({ publishedAt: '2026-06-01T12:00:00.001Z' }, names, now)).toBe('scheduled')
    expect(publicationState({ publishedAt: '2027-01-01T00:00:00Z', publishedResource: TWIN }, names, now)).toBe(
      'scheduled',
    )
  })

  it('published: publishedAt now or past, and not the draft twin of a published record', () => {
    expect(publicationState({ publishedAt: now.toISOString() }, names, now)).toBe('published')
    expect(publicationState({ publishedAt: '2020-01-01T00:00:00Z' }, names, now)).toBe('published')
    expect(isPublished({ publishedAt: '2020-01-01T00:00:00Z' }, names, now)).toBe(true)
  })

  it('a twin with a past publishedAt is still a draft, whether its link is an id or a populated record', () => {
    for (const link of [TWIN, { id: TWIN }, { relationTo: 'html_contents', value: TWIN }]) {
      expect(publicationState({ publishedAt: '2020-01-01T00:00:00Z', publishedResource: link }, names, now)).toBe(
        'draft',
      )
    }
    expect(isPublished({ publishedAt: '2020-01-01T00:00:00Z', publishedResource: TWIN }, names, now)).toBe(false)
  })

  it('reads the fields under the names the type gave them', () => {
    const renamed = { ...names, publishedAt: 'liveFrom', publishedResource: 'liveTwin' }
    expect(publicationState({ liveFrom: '2020-01-01T00:00:00Z' }, renamed, now)).toBe('published')
    expect(publicationState({ liveFrom: '2020-01-01T00:00:00Z', liveTwin: TWIN }, renamed, now)).toBe('draft')
    expect(publicationState({ publishedAt: '2020-01-01T00:00:00Z' }, renamed, now)).toBe('draft')
  })

  it('what callers without the publish permission may read: published by now, and no twin', () => {
    expect(publishedWhere(names, now)).toEqual({
      and: [{ publishedAt: { less_than_equal: now.toISOString() } }, { publishedResource: { exists: false } }],
    })
  })
})

describe('the publish validation group', () => {
  const ctx = (overrides: Partial<ResolvedPublishable>) => ({ names: { ...names, ...overrides } })

  it('a property required on publish must not be blank: null, absent, empty text or an empty list', () => {
    const required = ctx({ requiredOnPublish: ['title', 'tags', 'body', 'count'] })
    expect(publishViolations(required, { title: '', tags: [], count: 0 })).toEqual([
      { propertyPath: 'title', message: 'This value should not be blank.', code: 'HtmlContent:published' },
      { propertyPath: 'tags', message: 'This value should not be blank.', code: 'HtmlContent:published' },
      { propertyPath: 'body', message: 'This value should not be blank.', code: 'HtmlContent:published' },
    ])
    expect(publishViolations(required, { title: 'T', tags: ['a'], body: 'B', count: 0 })).toEqual([])
  })

  it("adds the type's own checks, each under the group's code; the default group is `published`", () => {
    const own = ctx({
      validationGroups: [],
      validate: (doc) => (doc.body === 'lorem' ? [{ propertyPath: 'body', message: 'Placeholder text.' }] : []),
    })
    expect(publishViolations(own, { body: 'lorem' })).toEqual([
      { propertyPath: 'body', message: 'Placeholder text.', code: 'published' },
    ])
    expect(publishViolations(own, { body: 'Real text' })).toEqual([])
  })
})

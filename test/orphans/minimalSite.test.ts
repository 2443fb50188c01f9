/**
 * The orphan scan in an app that is not the reference site
 * (test/support/minimalSite.ts): a page data property typed as the parent
 * class (a polymorphic relationship to every component type), a component
 * referenced only by an application-defined relation, and the grace period
 * (orphanedResources.gracePeriodSeconds, this library's own option).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { CollectionSlug } from 'payload'
import { defineComponent, definePageData } from 'payload-cwa'
import { scanOrphans } from '../../plugins/cwa/features/orphans'
import { createRecord } from '../support/fixtures'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

const Note = defineComponent({ shortName: 'Note', fields: [{ name: 'text', type: 'text' }] })
const Banner = defineComponent({ shortName: 'Banner', fields: [{ name: 'text', type: 'text' }] })
/** `featured` is typed as any component (the parent class): stored in the rels table, one column per type. */
const StoryData = definePageData({
  shortName: 'StoryData',
  fields: [{ name: 'featured', type: 'relationship', relationTo: ['notes', 'banners'] }],
})
/** An application's own collection pointing at a component: not part of the live tree. */
const Bookmarks = { slug: 'bookmarks', fields: [{ name: 'note', type: 'relationship' as const, relationTo: 'notes' as CollectionSlug }] }

let site: MinimalSite
let graced: MinimalSite

beforeAll(async () => {
  site = await startMinimalSite({ collections: [Note, Banner, StoryData, Bookmarks] })
  graced = await startMinimalSite({ collections: [Note, Banner, StoryData], options: { orphanedResources: { gracePeriodSeconds: 3600 } } })
})
afterAll(async () => {
  await site?.close()
  await graced?.close()
})

const ids = (scan: Awaited<ReturnType<typeof scanOrphans>>) => scan.components.map((c) => c.id)

describe('parent-class-typed page data properties', () => {
  it('a component held by a property typed as any component counts as used; the others are listed', async () => {
    const p = site.payload
    const layout = await createRecord(p, 'layouts', { reference: 'l' })
    const template = await createRecord(p, 'pages', { reference: 't', title: 'T', layout, isTemplate: true })
    const held = await createRecord(p, 'banners', { text: 'held' })
    const loose = await createRecord(p, 'banners', { text: 'loose' })
    await createRecord(p, 'story_datas', { title: 'Story', page: template, featured: { relationTo: 'banners', value: held } })
    const scan = await scanOrphans(p)
    expect(ids(scan)).not.toContain(held)
    expect(ids(scan)).toContain(loose)
    expect(scan.components.find((c) => c.id === loose)?.slug).toBe('banners')
  })

  it('a component referenced only by an application-defined relation is listed too', async () => {
    const note = await createRecord(site.payload, 'notes', { text: 'bookmarked' })
    await createRecord(site.payload, 'bookmarks', { note })
    expect(ids(await scanOrphans(site.payload))).toContain(note)
  })

  it('deleting a page data record takes the component of its parent-class-typed property', async () => {
    const p = site.payload
    const layout = await createRecord(p, 'layouts', { reference: 'l2' })
    const template = await createRecord(p, 'pages', { reference: 't2', title: 'T', layout, isTemplate: true })
    const held = await createRecord(p, 'notes', { text: 'held' })
    const story = await createRecord(p, 'story_datas', { title: 'Story', page: template, featured: { relationTo: 'notes', value: held } })
    await p.delete({ collection: 'story_datas' as CollectionSlug, id: story })
    expect(await site.sql('SELECT id FROM _acb_notes WHERE id = $1', [held])).toEqual([])
  })
})

describe('orphanedResources.gracePeriodSeconds', () => {
  it('keeps records younger than the grace period out of the scan, with what they hold; older ones are listed', async () => {
    const p = graced.payload
    const young = await createRecord(p, 'notes', { text: 'young' })
    const group = await createRecord(p, 'component_groups', { reference: 'g' })
    const inYoungGroup = await createRecord(p, 'notes', { text: 'inside' })
    await createRecord(p, 'component_positions', { componentGroup: group, component: { relationTo: 'notes', value: inYoungGroup }, sortValue: 0 })
    const old = await createRecord(p, 'notes', { text: 'old' })
    await graced.sql(`UPDATE _acb_notes SET created_at = now() - interval '2 hours' WHERE id = $1`, [old])
    await graced.sql(`UPDATE _acb_notes SET created_at = now() - interval '2 hours' WHERE id = $1`, [inYoungGroup])
    const scan = await scanOrphans(p)
    expect(ids(scan)).toEqual([old])
    expect(scan.componentGroups).toEqual([])
    expect(scan.componentPositions).toEqual([])
  })
})

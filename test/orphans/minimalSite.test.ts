/**
 * The orphan scan in an app that is not the reference site
 * (test/support/minimalSite.ts): a page data property typed as the parent
 * class (a polymorphic relationship to every component type), a component
 * referenced only by an application-defined relation, and the grace period
 * (orphanedResources.gracePeriodSeconds, this library's own option).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { CollectionSlug } from 'payload'
import { defineComponent, definePageData, getRegistry, PUBLISHABLE_TWIN_LINK } from 'payload-cwa'
import { scanOrphans } from '../../plugins/cwa/dist/features/orphans/index.js'
import { createRecord } from '../support/fixtures'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

const Note = defineComponent({ shortName: 'Note', fields: [{ name: 'text', type: 'text' }] })
const Banner = defineComponent({ shortName: 'Banner', fields: [{ name: 'text', type: 'text' }] })
/** Publishable: a draft is below its published version in the chain. */
const Memo = defineComponent({ shortName: 'Memo', publishable: true, fields: [{ name: 'text', type: 'text' }] })
/** `featured` is typed as any component (the parent class): stored in the rels table, one column per type. */
const StoryData = definePageData({
  shortName: 'StoryData',
  fields: [{ name: 'featured', type: 'relationship', relationTo: ['notes', 'banners'] }],
})
/** An application's own collection pointing at a component: not part of the live tree. */
const Bookmarks = {
  slug: 'bookmarks',
  fields: [{ name: 'note', type: 'relationship' as const, relationTo: 'notes' as CollectionSlug }],
}

let site: MinimalSite
let graced: MinimalSite

beforeAll(async () => {
  site = await startMinimalSite({ collections: [Note, Banner, StoryData, Bookmarks] })
  graced = await startMinimalSite({
    collections: [Note, Banner, Memo, StoryData],
    options: { orphanedResources: { gracePeriodSeconds: 3600 } },
  })
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
    await createRecord(p, 'story_datas', {
      title: 'Story',
      page: template,
      featured: { relationTo: 'banners', value: held },
    })
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
    const story = await createRecord(p, 'story_datas', {
      title: 'Story',
      page: template,
      featured: { relationTo: 'notes', value: held },
    })
    await p.delete({ collection: 'story_datas' as CollectionSlug, id: story })
    expect(await site.sql('SELECT id FROM _acb_notes WHERE id = $1', [held])).toEqual([])
  })
})

/** Makes records look created and last updated two hours ago (past the graced site's one-hour grace period). */
async function age(table: string, ...recordIds: string[]): Promise<void> {
  await graced.sql(
    `UPDATE ${table} SET created_at = now() - interval '2 hours', updated_at = now() - interval '2 hours' WHERE id = ANY($1::uuid[])`,
    [recordIds],
  )
}

/** An old orphaned chain: group <- position <- note (everything two hours old). */
async function oldChain(label: string): Promise<{ group: string; position: string; note: string }> {
  const p = graced.payload
  const group = await createRecord(p, 'component_groups', { reference: `${label}-group` })
  const note = await createRecord(p, 'notes', { text: label })
  const position = await createRecord(p, 'component_positions', {
    componentGroup: group,
    component: { relationTo: 'notes', value: note },
    sortValue: 0,
  })
  await age('_acb_component_groups', group)
  await age('_acb_component_positions', position)
  await age('_acb_notes', note)
  return { group, position, note }
}

describe('orphanedResources.gracePeriodSeconds', () => {
  it('keeps records younger than the grace period out of the scan, with what they hold; older ones are listed', async () => {
    const p = graced.payload
    await createRecord(p, 'notes', { text: 'young' }) // younger than the grace period: not in the scan below
    const group = await createRecord(p, 'component_groups', { reference: 'g' })
    const inYoungGroup = await createRecord(p, 'notes', { text: 'inside' })
    await createRecord(p, 'component_positions', {
      componentGroup: group,
      component: { relationTo: 'notes', value: inYoungGroup },
      sortValue: 0,
    })
    const old = await createRecord(p, 'notes', { text: 'old' })
    await age('_acb_notes', old, inYoungGroup)
    const scan = await scanOrphans(p)
    expect(ids(scan)).toEqual([old])
    expect(scan.componentGroups).toEqual([])
    expect(scan.componentPositions).toEqual([])
  })
  it('a recent position in an old group keeps the group, its other positions and components, and what it holds', async () => {
    const chain = await oldChain('recent-position')
    // The editor just placed an existing, old component in the old group.
    const placed = await createRecord(graced.payload, 'notes', { text: 'placed' })
    await age('_acb_notes', placed)
    const position = await createRecord(graced.payload, 'component_positions', {
      componentGroup: chain.group,
      component: { relationTo: 'notes', value: placed },
      sortValue: 1,
    })
    const scan = await scanOrphans(graced.payload)
    expect(scan.componentGroups).not.toContain(chain.group)
    expect(scan.componentPositions).not.toContain(chain.position)
    expect(scan.componentPositions).not.toContain(position)
    expect(ids(scan)).not.toContain(chain.note)
    expect(ids(scan)).not.toContain(placed)
  })

  it('a recent component (edited just now) keeps its old position, its old group and the old component owning that group', async () => {
    const chain = await oldChain('recent-component')
    const owner = await createRecord(graced.payload, 'banners', { text: 'owner', componentGroups: [chain.group] })
    await age('_acb_banners', owner)
    await graced.payload.update({
      collection: 'notes' as CollectionSlug,
      id: chain.note,
      data: { text: 'edited' } as never,
    })
    const scan = await scanOrphans(graced.payload)
    expect(scan.componentGroups).not.toContain(chain.group)
    expect(scan.componentPositions).not.toContain(chain.position)
    expect(ids(scan)).not.toContain(chain.note)
    expect(ids(scan)).not.toContain(owner)
  })

  it('a recent draft keeps its old published version and the old chain placing it', async () => {
    const p = graced.payload
    const group = await createRecord(p, 'component_groups', { reference: 'draft-group' })
    const published = await createRecord(p, 'memos', { text: 'published', publishedAt: '2026-01-01T00:00:00.000Z' })
    const position = await createRecord(p, 'component_positions', {
      componentGroup: group,
      component: { relationTo: 'memos', value: published },
      sortValue: 0,
    })
    await age('_acb_component_groups', group)
    await age('_acb_component_positions', position)
    await age('_acb_memos', published)
    expect(ids(await scanOrphans(p))).toContain(published)
    await p.create({
      collection: 'memos' as CollectionSlug,
      data: { text: 'draft', publishedResource: published } as never,
      context: { [PUBLISHABLE_TWIN_LINK]: true },
    })
    const scan = await scanOrphans(p)
    expect(ids(scan)).not.toContain(published)
    expect(scan.componentGroups).not.toContain(group)
    expect(scan.componentPositions).not.toContain(position)
  })

  it('an old chain with nothing recent in it is still listed, and the delete endpoint takes it while refusing a kept chain', async () => {
    const kept = await oldChain('kept')
    // Renamed just now: the group itself is recent (updated), so its old position and note are kept.
    await graced.payload.update({
      collection: 'component_groups' as CollectionSlug,
      id: kept.group,
      data: { reference: 'kept-renamed' } as never,
    })
    const swept = await oldChain('swept')
    const scan = await scanOrphans(graced.payload)
    expect(scan.componentGroups).toContain(swept.group)
    expect(scan.componentPositions).toContain(swept.position)
    expect(ids(scan)).toContain(swept.note)
    expect(scan.componentGroups).not.toContain(kept.group)

    const admin = await graced.tokenFor('ROLE_ADMIN')
    const iri = (slug: string, recordId: string) => getRegistry(graced.payload.config).itemIri(slug, recordId)
    const response = await graced.post(
      `${graced.prefix}/_/orphaned_resources/delete`,
      { iris: [iri('component_groups', swept.group), iri('component_groups', kept.group), iri('notes', kept.note)] },
      { token: admin },
    )
    expect(response.status).toBe(200)
    expect(response.body.deleted.componentGroups).toEqual([iri('component_groups', swept.group)])
    expect(response.body.deleted.components).toEqual([iri('notes', swept.note)])
    expect(response.body.rejected).toEqual([
      { iri: iri('component_groups', kept.group), reason: 'not_orphaned' },
      { iri: iri('notes', kept.note), reason: 'not_orphaned' },
    ])
    expect(await graced.sql('SELECT id FROM _acb_notes WHERE id = $1', [kept.note])).toHaveLength(1)
  })
})

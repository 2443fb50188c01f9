import type { Payload } from 'payload'
import { createRecord } from './fixtures'
import type { TestServer } from './server'

/** Fixture writers of the component tree (groups, positions, titles, layouts, pages) through the Local API (trusted). */

let counter = 0
export const ref = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}`

export const group = (payload: Payload) =>
  createRecord(payload, 'component_groups', { reference: ref('group'), location: 'main' })

export const title = (payload: Payload, groups: string[] = []) =>
  createRecord(payload, 'titles', { title: ref('title'), componentGroups: groups })

export const position = (
  payload: Payload,
  groupId: string,
  component?: { slug: string; id: string },
  extra: Record<string, unknown> = {},
) =>
  createRecord(payload, 'component_positions', {
    componentGroup: groupId,
    ...(component ? { component: { relationTo: component.slug, value: component.id } } : {}),
    sortValue: 0,
    ...extra,
  })

export const layout = (payload: Payload, groups: string[] = []) =>
  createRecord(payload, 'layouts', { reference: ref('layout'), componentGroups: groups })

export const page = (payload: Payload, layoutId: string, groups: string[] = [], extra: Record<string, unknown> = {}) =>
  createRecord(payload, 'pages', {
    reference: ref('page'),
    title: 'Page',
    layout: layoutId,
    componentGroups: groups,
    ...extra,
  })

/** Which of the ids still exist in the table. */
export async function surviving(server: TestServer, table: string, ids: string[]): Promise<string[]> {
  const rows = await server.sql(`SELECT id::text FROM ${table} WHERE id = ANY($1::uuid[])`, [ids])
  return ids.filter((id) => rows.some((row: { id: string }) => row.id === id))
}

export async function exists(server: TestServer, table: string, id: string): Promise<boolean> {
  return (await surviving(server, table, [id])).length === 1
}

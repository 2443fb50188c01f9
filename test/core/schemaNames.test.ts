import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  columnNameOf,
  relsColumnOf,
  relsTableOf,
  requireTableName,
  tableNameOf,
} from '../../plugins/cwa/dist/core/utils/schema.js'
import { startTestServer, type TestServer } from '../support/server'

/**
 * core/utils/schema.ts: the one place the raw SQL beside Payload's learns
 * table and column names (every feature asks it), checked against the
 * reference site's migrated database itself.
 */

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

async function columnsOf(table: string): Promise<string[]> {
  const rows = await server.sql(`SELECT column_name FROM information_schema.columns WHERE table_name = $1`, [table])
  return rows.map((r) => r.column_name as string)
}

describe('names of the adapter, as the database has them', () => {
  it('a type, a core resource and a Payload collection whose slug has hyphens', async () => {
    const p = server.payload
    expect(tableNameOf(p, 'html_contents')).toBe('_acb_html_contents')
    expect(tableNameOf(p, 'routes')).toBe('_acb_routes')
    expect(tableNameOf(p, 'payload-locked-documents')).toBe('payload_locked_documents')
    for (const slug of ['html_contents', 'routes', 'payload-locked-documents']) {
      expect(await server.sql('SELECT to_regclass($1) IS NOT NULL AS present', [tableNameOf(p, slug)])).toEqual([
        { present: true },
      ])
    }
  })

  it('an unknown collection is null, and an error where the SQL needs it', () => {
    expect(tableNameOf(server.payload, 'no_such_things')).toBeNull()
    expect(() => requireTableName(server.payload, 'no_such_things')).toThrow('No table for collection "no_such_things"')
  })

  it('the column of a top-level field; none for a field stored elsewhere (hasMany) or unknown', async () => {
    const p = server.payload
    expect(columnNameOf(p, 'routes', 'effectiveLiveAt')).toBe('effective_live_at')
    expect(columnNameOf(p, 'pages', 'layout')).toBe('layout_id')
    expect(await columnsOf('_acb_routes')).toEqual(expect.arrayContaining(['effective_live_at']))
    expect(await columnsOf('_acb_pages')).toEqual(expect.arrayContaining(['layout_id']))
    expect(columnNameOf(p, 'pages', 'componentGroups')).toBeNull()
    expect(columnNameOf(p, 'pages', 'noSuchField')).toBeNull()
  })

  it('the rels table and its column of one target (polymorphic and hasMany relationships)', async () => {
    const p = server.payload
    expect(relsTableOf(p, 'pages')).toBe('_acb_pages_rels')
    expect(relsTableOf(p, 'newsletter_signups')).toBeNull()
    const titles = relsColumnOf(p, 'component_positions', 'titles')
    expect(titles?.table).toBe('_acb_component_positions_rels')
    expect(await columnsOf(titles!.table)).toContain(titles!.column)
    expect(relsColumnOf(p, 'component_positions', 'pages')).toBeNull()
  })
})

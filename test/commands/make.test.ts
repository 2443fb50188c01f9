import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CollectionConfig } from 'payload'
import { type Command, runMake } from '../../plugins/cwa/dist/core/commands/make.js'
import { runPayloadCommand } from '../support/command'
import { createRecord } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'

/**
 * The developer generators `npx payload cwa:make:*` (contract: operator
 * console), run as real child processes writing into a folder of this test:
 * the type modules and their index, and the rename migration, which is then
 * run up and down on a database holding the renamed type's records.
 */

let server: TestServer
const dir = path.join(process.cwd(), '.data', 'test', `make-${process.pid}`)

// The generators read the config only: no database.
const run = (command: string, args: string[]) => runPayloadCommand(command, args)

async function ok(command: string, args: string[]) {
  const result = await run(command, args)
  if (result.code !== 0) throw new Error(`${command} exited ${result.code}\n${result.stdout}\n${result.stderr}`)
  return result
}

beforeAll(async () => {
  mkdirSync(dir, { recursive: true })
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('type generators', () => {
  it('make:api-component, make:page-data and make:cwa-scaffold write a module per type and list them in the index', async () => {
    const types = path.join(dir, 'types')
    await ok('cwa:make:api-component', ['Banner', '--publishable', '--dir', types])
    await ok('cwa:make:page-data', ['EventData', '--component', 'titles', '--dir', types])
    const scaffold = await ok('cwa:make:cwa-scaffold', ['Promo', '--dir', types])
    expect(scaffold.stdout).toContain('npx payload migrate:create add_promo')
    expect(readdirSync(types).sort()).toEqual([
      'Banner.ts',
      'EventData.ts',
      'PromoBlock.ts',
      'PromoData.ts',
      'index.ts',
    ])
    const index = (await import(pathToFileURL(path.join(types, 'index.ts')).href)) as {
      generatedComponents: CollectionConfig[]
      generatedPageData: CollectionConfig[]
    }
    expect(index.generatedComponents.map((c) => c.slug)).toEqual(['banners', 'promo_blocks'])
    expect(index.generatedPageData.map((c) => c.slug)).toEqual(['event_datas', 'promo_datas'])
    const banner = index.generatedComponents[0]!.custom?.cwa as { shortName: string; publishable: unknown }
    expect(banner).toMatchObject({ shortName: 'Banner', publishable: true })
    expect(readFileSync(path.join(types, 'PromoData.ts'), 'utf8')).toContain("relationTo: 'promo_blocks'")
  }, 180_000) // three generators, each Payload's CLI in a child process

  // One refusal through the console (Payload's CLI in a child process, 10-20 s on a busy CI machine).
  it('refuses a taken short name: the reason on stderr, exit 1, nothing written', async () => {
    const types = path.join(dir, 'refused')
    const result = await run('cwa:make:api-component', ['Title', '--dir', types])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('A type named Title exists already')
    expect(existsSync(types)).toBe(false)
  })

  // The command's own code in this process (the run above shows how a refusal reaches the console).
  it.each([
    ['a name not in PascalCase', 'cwa:make:api-component', ['banner'], /needs a short name in PascalCase/],
    ['no name', 'cwa:make:api-component', [], /needs a short name in PascalCase/],
    [
      'a taken page data name',
      'cwa:make:page-data',
      ['BlogArticleData'],
      /A type named BlogArticleData exists already/,
    ],
    [
      'an unknown component',
      'cwa:make:page-data',
      ['XData', '--component', 'nope'],
      /--component "nope" is not a component collection slug/,
    ],
    [
      'a misspelt option',
      'cwa:make:api-component',
      ['Banner', '--publishabel'],
      /^Unknown option --publishabel\nUsage: npx payload cwa:make:api-component <Name> \[--publishable\]/,
    ],
    [
      'a switch given a value',
      'cwa:make:api-component',
      ['Banner', '--publishable=no'],
      /^Unknown option --publishable=no/,
    ],
    [
      'an option of another generator',
      'cwa:make:cwa-scaffold',
      ['Promo', '--component', 'titles'],
      /^Unknown option --component\nUsage: npx payload cwa:make:cwa-scaffold/,
    ],
    [
      'a second name',
      'cwa:make:page-data',
      ['EventData', 'Extra'],
      /^Unexpected argument Extra\nUsage: npx payload cwa:make:page-data/,
    ],
  ] as Array<[string, Command, string[], RegExp]>)(
    'refuses %s (nothing written)',
    async (_case, command, args, reason) => {
      const types = path.join(dir, 'refused')
      await expect(runMake(server.payload.config, command, [...args, '--dir', types])).rejects.toThrow(reason)
      expect(existsSync(types)).toBe(false)
    },
  )
})

describe('make:rename-component', () => {
  const migrations = path.join(dir, 'migrations')

  it.each([
    ['an IRI that does not start with /', ['--old-iri', 'component/titles', '--new-iri', '/component/headings']],
    ['a new IRI of another kind of type', ['--old-iri', '/component/titles', '--new-iri', '/page_data/headings']],
    ['no new IRI', ['--old-iri', '/component/titles']],
    ['a positional argument', ['titles', '--old-iri', '/component/titles', '--new-iri', '/component/headings']],
  ])('refuses %s (nothing written)', async (_case, args) => {
    await expect(
      runMake(server.payload.config, 'cwa:make:rename-component', [...args, '--dir', migrations]),
    ).rejects.toThrow(/--old-iri|--new-iri|Unexpected argument titles/)
    expect(existsSync(migrations) ? readdirSync(migrations) : []).toEqual([])
  })

  it('a component: tables, position and rels columns and allowedComponents IRIs renamed by up, restored by down', async () => {
    const p = server.payload
    const group = await createRecord(p, 'component_groups', {
      reference: 'g-rename',
      allowedComponents: ['/_api/component/titles', '/component/titles', '/_api/component/html_contents'],
    })
    const title = await createRecord(p, 'titles', { title: 'Renamed' })
    const position = await createRecord(p, 'component_positions', {
      componentGroup: group,
      component: { relationTo: 'titles', value: title },
      sortValue: 0,
    })
    // Stored IRIs may lack the API prefix (written by SQL or an older release): both forms are renamed.
    await server.sql(
      `UPDATE _acb_component_groups SET allowed_components = '["/_api/component/titles", "/component/titles", "/_api/component/html_contents"]' WHERE id = $1`,
      [group],
    )
    const allowedOf = async () =>
      (await server.sql('SELECT allowed_components FROM _acb_component_groups WHERE id = $1', [group]))[0]
        .allowed_components as string[]
    const stored = await allowedOf()
    const result = await ok('cwa:make:rename-component', [
      '--old-iri',
      '/_api/component/titles',
      '--new-iri',
      '/component/headings',
      '--namespace',
      'App\\Migrations',
      '--timestamp',
      '20261123_171500',
      '--dir',
      migrations,
    ])
    expect(result.stdout).toContain('declare the type as Heading')
    const file = path.join(migrations, '20261123_171500_Migrations.ts')
    const migration = (await import(pathToFileURL(file).href)) as {
      up(args: unknown): Promise<void>
      down(args: unknown): Promise<void>
    }
    const db = (p.db as unknown as { drizzle: unknown }).drizzle
    await migration.up({ db, payload: p })
    expect(await server.sql('SELECT title FROM _acb_headings WHERE id = $1', [title])).toEqual([{ title: 'Renamed' }])
    expect(await server.sql(`SELECT to_regclass('_acb_titles') AS t`)).toEqual([{ t: null }])
    expect(
      await server.sql(`SELECT _acb_headings_id::text AS id FROM _acb_component_positions_rels WHERE parent_id = $1`, [
        position,
      ]),
    ).toEqual([{ id: title }])
    expect(await allowedOf()).toEqual([
      '/_api/component/headings',
      '/component/headings',
      '/_api/component/html_contents',
    ])
    expect(
      await server.sql(
        `SELECT count(*)::int AS n FROM information_schema.columns WHERE column_name = '_acb_headings_id'`,
      ),
    ).toEqual([{ n: 2 }])

    await migration.down({ db, payload: p })
    expect(await server.sql('SELECT title FROM _acb_titles WHERE id = $1', [title])).toEqual([{ title: 'Renamed' }])
    expect(await allowedOf()).toEqual(stored)
    // Payload works on the restored schema again.
    expect((await server.get(`/_api/component/titles/${title}`)).status).toBe(200)
  })

  it('page data: pageDataClass values and the polymorphic reference columns of routes and parents too', async () => {
    const p = server.payload
    const layout = await createRecord(p, 'layouts', { reference: 'l-rename' })
    const template = await createRecord(p, 'pages', { reference: 't-rename', title: 'T', layout, isTemplate: true })
    const article = await createRecord(p, 'blog_article_datas', { title: 'Article', page: template })
    const route = await createRecord(p, 'routes', {
      path: '/renamed-article',
      pageData: { relationTo: 'blog_article_datas', value: article },
    })
    const group = await createRecord(p, 'component_groups', { reference: 'g-bound' })
    const bound = await createRecord(p, 'component_positions', {
      componentGroup: group,
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
      sortValue: 0,
    })
    await ok('cwa:make:rename-component', [
      '--old-iri',
      '/page_data/blog_article_datas',
      '--new-iri',
      '/page_data/story_datas',
      '--timestamp',
      '20261123_171501',
      '--dir',
      migrations,
    ])
    const migration = (await import(
      pathToFileURL(path.join(migrations, '20261123_171501_rename_blog_article_datas_to_story_datas.ts')).href
    )) as {
      up(args: unknown): Promise<void>
      down(args: unknown): Promise<void>
    }
    const db = (p.db as unknown as { drizzle: unknown }).drizzle
    await migration.up({ db, payload: p })
    expect(await server.sql('SELECT page_data_class FROM _acb_component_positions WHERE id = $1', [bound])).toEqual([
      { page_data_class: 'StoryData' },
    ])
    expect(
      await server.sql(`SELECT _acb_story_datas_id::text AS id FROM _acb_routes_rels WHERE parent_id = $1`, [route]),
    ).toEqual([{ id: article }])
    expect(await server.sql('SELECT title FROM _acb_story_datas WHERE id = $1', [article])).toEqual([
      { title: 'Article' },
    ])
    await migration.down({ db, payload: p })
    expect(await server.sql('SELECT page_data_class FROM _acb_component_positions WHERE id = $1', [bound])).toEqual([
      { page_data_class: 'BlogArticleData' },
    ])
    expect((await server.get(`/_api/_/routes/${route}`, { token: await server.tokenFor('ROLE_ADMIN') })).status).toBe(
      200,
    )
  })
})

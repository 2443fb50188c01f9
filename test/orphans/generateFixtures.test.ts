import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Payload } from 'payload'
import { readStoredFile, recordFiles, uploadFieldsOf } from 'payload-cwa'
import sharp from 'sharp'
import { fixtureCollections, INLINE_MAX_BYTES } from '../../plugins/cwa/dist/features/fixtures/commands/generate.js'
import { clientNameOf } from '../../plugins/cwa/dist/features/fixtures/commands/values.js'
import { type CommandRun, runPayloadCommand, UNREACHABLE_DATABASE_URL } from '../support/command'
import { createRecord } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'
import { dataUri, jpeg, pdf, png } from '../support/uploadFiles'

/**
 * `npx payload cwa:generate-fixtures -o <file> --namespace <name>` round
 * trip: the command (a real child process) writes a seed module from a
 * database holding every kind of structure (scheduled, offline and redirect
 * routes, child pages, page data under pages and page data, drafts of
 * published components, nested groups, dynamic positions, uploaded files: an
 * image named by its data URI and placed, its draft with a file of its own, a
 * download with an inlined PDF and an image preview, a nameless data-URI
 * upload); the module is run on an empty database; the two databases are then
 * compared row by row, every reference replaced by the referenced record's
 * natural key (ids aside), every stored file by its bytes (a hash), its
 * name's stem and its info records (type, size, dimensions) and those of its
 * variants, read through the storage adapter.
 */

let source: TestServer
let target: TestServer
const dir = path.join(process.cwd(), '.data', 'test', `fixtures-${process.pid}`)
const output = path.join(dir, 'generated.ts')
const storage = path.join(dir, 'uploads')

/** A noisy image: too large to inline in the module (its bytes go to the files folder). */
const noisy = (width: number, height: number, format: 'png' | 'jpeg') => {
  const image = sharp({
    create: { width, height, channels: 3, background: '#406080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
  return (format === 'png' ? image.png() : image.jpeg({ quality: 85 })).toBuffer()
}
const sha = (bytes: Buffer) =>
  createHash('sha256')
    .update(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length))
    .digest('hex')

function run(args: string[], env: Record<string, string> = {}): Promise<CommandRun> {
  // The command's site stores files under <CWA_DATA_DIR>/uploads: the servers' storage below.
  return runPayloadCommand('cwa:generate-fixtures', args, {
    DATABASE_URL: source.databaseUrl,
    CWA_DATA_DIR: dir,
    ...env,
  })
}

async function seedSource(payload: Payload, admin: string): Promise<void> {
  const c = (collection: string, data: Record<string, unknown>) => createRecord(payload, collection, data)
  const header = await c('component_groups', {
    reference: 'header',
    location: 'header',
    allowedComponents: ['/_api/component/titles'],
  })
  const main = await c('component_groups', { reference: 'main', location: 'main' })
  const nested = await c('component_groups', { reference: 'nested', location: 'inner' })
  const templateGroup = await c('component_groups', { reference: 'template-main', location: 'main' })
  const layout = await c('layouts', {
    reference: 'layout',
    uiComponent: 'PrimaryLayout',
    uiClassNames: ['a', 'b'],
    componentGroups: [header],
  })
  const logo = await c('titles', { title: 'Logo' })
  const card = await c('titles', { title: 'Card', componentGroups: [nested], uiClassNames: ['card'] })
  const inner = await c('titles', { title: 'Inner' })
  const html = await c('html_contents', { html: '<p>published</p>', publishedAt: '2026-01-01T00:00:00.000Z' })
  const fallback = await c('html_contents', { html: '<p>fallback</p>', publishedAt: '2026-01-02T00:00:00.000Z' })
  const orphan = await c('titles', { title: 'Orphan' })
  await c('component_positions', {
    componentGroup: header,
    component: { relationTo: 'titles', value: logo },
    sortValue: 1,
  })
  await c('component_positions', {
    componentGroup: main,
    component: { relationTo: 'titles', value: card },
    sortValue: 1,
  })
  await c('component_positions', {
    componentGroup: main,
    component: { relationTo: 'html_contents', value: html },
    sortValue: 2,
  })
  await c('component_positions', {
    componentGroup: nested,
    component: { relationTo: 'titles', value: inner },
    sortValue: 1,
  })
  // Uploaded files. An image named by its data URI (stored as hero-<token>.png, a thumbnail variant), placed and published.
  const heroBytes = await noisy(400, 300, 'png')
  const hero = await c('images', {
    publishedAt: '2026-01-01T00:00:00.000Z',
    file: `data:image/png;name=hero.png;base64,${heroBytes.toString('base64')}`,
  })
  await c('component_positions', {
    componentGroup: main,
    component: { relationTo: 'images', value: hero },
    sortValue: 3,
  })
  // A download: an inlined PDF and a JPEG preview (to the files folder, with its thumbnail).
  await c('file_downloads', {
    file: `data:application/pdf;name=manual.pdf;base64,${pdf.toString('base64')}`,
    preview: dataUri(await noisy(320, 240, 'jpeg'), 'image/jpeg'),
  })
  // A nameless data-URI upload (stored as <uuid>.png): small, inlined.
  await c('images', { file: dataUri(await png(32, 24), 'image/png') })
  await c('component_positions', {
    componentGroup: templateGroup,
    component: { relationTo: 'html_contents', value: fallback },
    pageDataClass: 'BlogArticleData',
    pageDataProperty: 'htmlContent',
    sortValue: 1,
  })
  const home = await c('pages', {
    reference: 'home',
    title: 'Home',
    metaDescription: 'The home page',
    layout,
    componentGroups: [main],
  })
  const child = await c('pages', { reference: 'child', title: 'Child', layout, parentPage: home })
  const template = await c('pages', {
    reference: 'blog-template',
    title: 'Blog',
    layout,
    isTemplate: true,
    componentGroups: [templateGroup],
  })
  const article = await c('blog_article_datas', {
    title: 'Article',
    page: template,
    htmlContent: html,
    parentPage: home,
  })
  const news = await c('news_article_datas', {
    title: 'News',
    page: template,
    summary: 'Short',
    parentPageData: { relationTo: 'blog_article_datas', value: article },
    publishedAt: '2026-01-03T00:00:00.000Z',
  })
  // A page under page data: its parent is created after it (a later collection).
  await c('pages', {
    reference: 'under-article',
    title: 'Under',
    layout,
    parentPageData: { relationTo: 'blog_article_datas', value: article },
  })
  const homeRoute = await c('routes', { path: '/', page: home, liveAt: '2026-01-01T00:00:00.000Z' })
  await c('routes', { path: '/child', page: child, liveAt: '2099-01-01T00:00:00.000Z' })
  await c('routes', { path: '/article', pageData: { relationTo: 'blog_article_datas', value: article }, liveAt: null })
  await c('routes', { path: '/news', pageData: { relationTo: 'news_article_datas', value: news } })
  await c('routes', { path: '/old-home', redirect: homeRoute })
  // A draft of a published component (the state machine makes it), pending content of its own.
  const response = await fetch(`${source.url}/_api/component/html_contents/${html}`, {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${admin}`,
      'content-type': 'application/merge-patch+json',
      accept: 'application/ld+json',
    },
    body: JSON.stringify({ html: '<p>pending draft</p>' }),
  })
  if (response.status !== 200) throw new Error(`draft: ${response.status} ${await response.text()}`)
  // The hero's draft: a file of its own (the published image keeps the original).
  const heroDraft = await fetch(`${source.url}/_api/component/images/${hero}`, {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${admin}`,
      'content-type': 'application/merge-patch+json',
      accept: 'application/ld+json',
    },
    body: JSON.stringify({
      file: `data:image/jpeg;name=hero-new.jpg;base64,${(await jpeg(300, 200)).toString('base64')}`,
    }),
  })
  if (heroDraft.status !== 200) throw new Error(`image draft: ${heroDraft.status} ${await heroDraft.text()}`)
  void orphan
}

/** Every record of the reproduced collections, each reference replaced by its target's natural key. */
async function dump(payload: Payload): Promise<Record<string, unknown[]>> {
  const collections = fixtureCollections(payload)
  const docs = new Map<string, Array<Record<string, unknown>>>()
  for (const slug of collections) {
    docs.set(
      slug,
      (await payload.find({ collection: slug as never, depth: 0, pagination: false, overrideAccess: true }))
        .docs as Array<Record<string, unknown>>,
    )
  }
  // Stored files: each path replaced by the file's bytes (a hash), its name's stem and its info records, read through the storage.
  const fileOf = new Map<string, unknown>()
  for (const [slug, list] of docs) {
    for (const files of (await recordFiles(payload, slug, list)).values()) {
      for (const file of files) {
        const bytes = await readStoredFile(payload, file.adapter, file.path)
        const variants = []
        for (const v of file.variants) {
          const variantBytes = await readStoredFile(payload, v.adapter, v.path)
          variants.push({
            filter: v.filter,
            position: v.position,
            mimeType: v.mimeType,
            fileSize: v.fileSize,
            width: v.width,
            height: v.height,
            sha: variantBytes && sha(variantBytes),
          })
        }
        const info = file.info && {
          mimeType: file.info.mimeType,
          fileSize: file.info.fileSize,
          width: file.info.width,
          height: file.info.height,
        }
        fileOf.set(file.path, {
          name: clientNameOf(file.path) ?? '<uuid>',
          sha: bytes && sha(bytes),
          size: bytes?.length,
          info,
          variants,
        })
      }
    }
  }
  const keyOf = new Map<string, string>()
  const natural = (slug: string, doc: Record<string, unknown>): string => {
    const stored = uploadFieldsOf(payload, slug).flatMap((f) =>
      typeof doc[f.property] === 'string' ? [doc[f.property] as string] : [],
    )
    if (stored.length > 0) return `files:${stored.map((p) => (fileOf.get(p) as { sha: string }).sha).join('+')}`
    return String(doc.reference ?? doc.path ?? doc.title ?? doc.html ?? (slug === 'component_positions' ? '' : doc.id))
  }
  for (const [slug, list] of docs) for (const doc of list) keyOf.set(String(doc.id), `${slug}:${natural(slug, doc)}`)
  // Positions: their group's key and sort value.
  for (const doc of docs.get('component_positions') ?? [])
    keyOf.set(String(doc.id), `position:${keyOf.get(String(doc.componentGroup))}#${doc.sortValue}`)
  const replace = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(replace)
    if (value && typeof value === 'object' && 'relationTo' in (value as object)) {
      const v = value as { relationTo: string; value: unknown }
      return { relationTo: v.relationTo, value: keyOf.get(String(v.value)) ?? `missing ${String(v.value)}` }
    }
    if (typeof value === 'string' && keyOf.has(value)) return keyOf.get(value)
    if (typeof value === 'string' && fileOf.has(value)) return fileOf.get(value)
    return value
  }
  const out: Record<string, unknown[]> = {}
  for (const [slug, list] of docs) {
    const fields = payload.collections[slug as never]!.config.flattenedFields.filter((f) => f.type !== 'join').map(
      (f) => f.name,
    )
    out[slug] = list
      // (adminTitle is derived on save, from stored file names too, whose random tokens differ between the sites.)
      .map((doc) =>
        Object.fromEntries(
          fields
            .filter((f) => f !== 'id' && f !== 'createdAt' && f !== 'updatedAt' && f !== 'adminTitle')
            .map((f) => [f, replace(doc[f] ?? null)]),
        ),
      )
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
  }
  return out
}

beforeAll(async () => {
  mkdirSync(dir, { recursive: true })
  // Both sites on one storage folder of this test's own (stored names never collide: each has a random token).
  const options = { uploads: { storage: { local: { adapter: 'local' as const, directory: storage } } } }
  source = await startTestServer({ options })
  target = await startTestServer({ options })
  await seedSource(source.payload, await source.tokenFor('ROLE_ADMIN'))
})
afterAll(async () => {
  await source?.close()
  await target?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('cwa:generate-fixtures', () => {
  it('round trip: the generated module recreates the database row by row (ids aside), and the command says what it did not reproduce', async () => {
    const result = await run(['-o', output, '--namespace', 'App\\DataFixtures'])
    if (result.code !== 0) throw new Error(`exit ${result.code}\n${result.stdout}\n${result.stderr}`)
    expect(result.stdout).toContain('function DataFixtures(payload, req?)')
    expect(result.stdout).toMatch(/Not reproduced:\n.*user\(s\)/)
    const generated = readFileSync(output, 'utf8')
    expect(generated).toContain('export async function DataFixtures(')
    expect(result.stdout).not.toContain('uploaded file')
    // Large files next to the module (the stored name), small ones inlined as data URIs with their name.
    const folder = `${output}.files`
    expect(result.stdout).toContain(`Wrote 2 file(s) the module reads into ${folder}`)
    const written = readdirSync(folder).sort()
    expect(written).toHaveLength(2)
    expect(written.filter((name) => /^hero-[0-9a-f]{12}\.png$/.test(name))).toHaveLength(1)
    for (const name of written) expect(readFileSync(path.join(folder, name)).length).toBeGreaterThan(INLINE_MAX_BYTES)
    expect(generated).toContain(`data:application/pdf;name=manual.pdf;base64,${pdf.toString('base64')}`)
    expect(generated).toMatch(/file: "data:image\/png;base64,/)

    const module = (await import(pathToFileURL(output).href)) as {
      DataFixtures: (payload: Payload) => Promise<Record<string, string>>
    }
    const ids = await module.DataFixtures(target.payload)
    expect(Object.keys(ids).length).toBeGreaterThan(20)

    const before = await dump(source.payload)
    const after = await dump(target.payload)
    for (const slug of Object.keys(before)) expect({ [slug]: after[slug] }).toEqual({ [slug]: before[slug] })
    // The cases that need care are really there.
    expect(JSON.stringify(before.routes)).toContain('"liveAt":null')
    expect(JSON.stringify(before.routes)).toContain('2099-01-01')
    expect(JSON.stringify(before.html_contents)).toContain('"publishedResource":"html_contents:<p>published</p>"')
    expect(JSON.stringify(before.pages)).toContain(
      '"parentPageData":{"relationTo":"blog_article_datas","value":"blog_article_datas:Article"}',
    )
    // Files: 5 stored records' files (hero, its draft, the download's two, the nameless image), with variants.
    const files = JSON.stringify([before.images, before.file_downloads])
    expect(files.match(/"sha":"[0-9a-f]{64}","size"/g)).toHaveLength(5)
    expect(files).toContain('"name":"hero.png"')
    expect(files).toContain('"name":"hero-new.jpg"')
    expect(files).toContain('"name":"manual.pdf"')
    expect(files).toContain('"name":"<uuid>"')
    expect(files).toContain('"info":{"mimeType":"image/png","fileSize":')
    expect(files).toContain('"width":400,"height":300')
    expect(files).toMatch(
      /"filter":"thumbnail","position":1,"mimeType":"image\/webp","fileSize":\d+,"width":300,"height":225,"sha":"[0-9a-f]{64}"/,
    )
    expect(JSON.stringify(before.component_positions)).toMatch(
      /"relationTo":"images","value":"images:files:[0-9a-f]{64}"/,
    )
  })

  it('lists a file missing from its storage under "Not reproduced" and leaves it out of the module', async () => {
    const [row] = await source.sql("SELECT id, filename FROM _acb_file_downloads WHERE filename LIKE 'manual-%'")
    rmSync(path.join(storage, row.filename))
    const result = await run(['-o', output])
    if (result.code !== 0) throw new Error(`exit ${result.code}\n${result.stdout}\n${result.stderr}`)
    expect(result.stdout).toContain(
      `file_downloads:${row.id}: the file "${row.filename}" (file) is missing from storage "local"; the record is created without it`,
    )
    const generated = readFileSync(output, 'utf8')
    expect(generated).not.toContain('name=manual.pdf')
    expect(generated).toMatch(/preview: file\("[^"]+\.jpg", "image\/jpeg", null\)/)
  })

  it('refuses an unknown argument before reaching the database (exit 1, usage)', async () => {
    const result = await run(['--format', 'php'], { DATABASE_URL: UNREACHABLE_DATABASE_URL })
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(
      'Unknown argument --format\nUsage: npx payload cwa:generate-fixtures [--output|-o <file>] [--namespace <functionName>]',
    )
  })
})

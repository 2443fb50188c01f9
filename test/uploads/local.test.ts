/**
 * Uploads with the local storage adapter, end to end over HTTP (contract:
 * "Uploadable fields", the upload and download endpoints, the upload rows of
 * Limits and Errors; reference-deployment.md: Image and FileDownload). Real
 * files made by sharp, real PostgreSQL, real Express; the storage directory
 * is looked at directly to prove what was (and was not) written.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { createLocalReq, initTransaction, killTransaction } from 'payload'
import { captureLogs } from '../support/logs'
import { seedDemo } from '../../src/seed/demo'
import { startTestServer, type TestServer } from '../support/server'
import {
  dataUri,
  formData,
  same,
  gif,
  jpeg,
  type Part,
  pdf,
  pixelBomb,
  png,
  svgWithScript,
  truncatedPng,
  webp,
} from '../support/uploadFiles'

let server: TestServer
let admin: string
let user: string
let storageDir: string
let stagingDir: string

const IMAGES = '/_api/component/images'
const DOWNLOADS = '/_api/component/file_downloads'
const PAST = '2020-01-01T00:00:00.000Z'

beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'cwa-uploads-local-'))
  stagingDir = mkdtempSync(path.join(tmpdir(), 'cwa-uploads-staging-'))
  server = await startTestServer({
    options: {
      uploads: { storage: { local: { adapter: 'local', directory: storageDir } }, stagingDirectory: stagingDir },
    },
  })
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
})

afterAll(async () => {
  await server?.close()
  rmSync(storageDir, { recursive: true, force: true })
  rmSync(stagingDir, { recursive: true, force: true })
})

/** Every file in the storage directory, relative paths. */
const stored = (): string[] =>
  readdirSync(storageDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(storageDir, path.join((e as unknown as { parentPath: string }).parentPath, e.name)))
    .sort()
const infoRows = async () => Number((await server.sql('SELECT count(*)::int AS n FROM _acb_uploaded_files'))[0].n)

async function upload(iri: string, parts: Part[], token: string | null = admin, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${iri}/upload`, {
    method: 'POST',
    headers: { accept: 'application/ld+json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: formData(parts),
  })
  const text = await response.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {
    /* not JSON */
  }
  return { status: response.status, body, headers: response.headers }
}

async function fetchBytes(url: string, token: string | null = admin) {
  const response = await fetch(url.startsWith('http') ? url : `${server.url}${url}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

async function newImage(body: Record<string, unknown> = {}): Promise<string> {
  const response = await server.post(IMAGES, body, { token: admin })
  if (response.status !== 201) throw new Error(`POST ${IMAGES}: ${response.status} ${response.text}`)
  return response.body['@id']
}

async function publishedImage(bytes?: Buffer): Promise<{ iri: string; path: string }> {
  const iri = await newImage()
  if (bytes) expect((await upload(iri, [{ name: 'file', filename: 'live.png', bytes }])).status).toBe(200)
  const published = await server.patch(iri, { publishedAt: PAST }, { token: admin })
  expect(published.status).toBe(200)
  const id = iri.split('/').pop()
  const [row] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [id])
  return { iri, path: row.filename }
}

describe('multipart upload and download (local adapter)', () => {
  it.each([
    ['PNG', () => png(64, 48), 'image/png', 'png', 64, 48],
    ['JPEG', () => jpeg(640, 480), 'image/jpeg', 'jpg', 640, 480],
    ['WebP', () => webp(120, 90), 'image/webp', 'webp', 120, 90],
    ['GIF', () => gif(50, 40), 'image/gif', 'gif', 50, 40],
  ])(
    'stores a %s with its thumbnail variant; both URLs give back the bytes',
    async (_name, make, mimeType, ext, width, height) => {
      const bytes = await make()
      const iri = await newImage()
      const response = await upload(iri, [{ name: 'file', filename: `photo.${ext}`, bytes, type: mimeType }])
      expect(response.status).toBe(200)
      const objects = response.body._metadata.mediaObjects.file
      expect(objects).toHaveLength(2)
      expect(objects[0]).toEqual({
        contentUrl: `${server.url}${iri}/download/file`,
        fileSize: bytes.length,
        mimeType,
        width,
        height,
        imagineFilter: null,
      })
      expect(objects[1]).toMatchObject({
        contentUrl: `${server.url}${iri}/download/file/thumbnail`,
        mimeType: 'image/webp',
        imagineFilter: 'thumbnail',
      })
      // thumbnail: inside 300×300, aspect ratio kept, never enlarged
      const scale = Math.min(1, 300 / width, 300 / height)
      expect(objects[1].width).toBe(Math.round(width * scale))
      expect(objects[1].height).toBe(Math.round(height * scale))
      const original = await fetchBytes(objects[0].contentUrl)
      expect(original.status).toBe(200)
      expect(same(original.bytes, bytes)).toBe(true)
      expect(original.headers.get('content-type')).toBe(mimeType)
      expect(original.headers.get('x-content-type-options')).toBe('nosniff')
      expect(original.headers.get('content-disposition')).toMatch(
        new RegExp(`^inline; filename="photo-[0-9a-f]{12}\\.${ext}"`),
      )
      const variant = await fetchBytes(objects[1].contentUrl)
      expect(variant.status).toBe(200)
      expect(variant.headers.get('content-type')).toBe('image/webp')
      const meta = await sharp(variant.bytes).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', objects[1].width, objects[1].height])
      // The record's GET shows the same media objects (from the info records).
      const read = await server.get(iri, { token: admin })
      expect(read.body._metadata.mediaObjects.file).toEqual(objects)
      expect(read.body).not.toHaveProperty('file')
    },
  )

  it('serves an SVG with its script as a download that cannot run it: no variants, CSP, nosniff', async () => {
    const iri = await newImage()
    const response = await upload(iri, [
      { name: 'file', filename: 'drawing.svg', bytes: svgWithScript, type: 'image/svg+xml' },
    ])
    expect(response.status).toBe(200)
    const objects = response.body._metadata.mediaObjects.file
    expect(objects).toEqual([
      {
        contentUrl: `${server.url}${iri}/download/file`,
        fileSize: svgWithScript.length,
        mimeType: 'image/svg+xml',
        width: null,
        height: null,
        imagineFilter: null,
      },
    ])
    const download = await fetchBytes(objects[0].contentUrl)
    expect(same(download.bytes, svgWithScript)).toBe(true)
    expect(download.headers.get('content-type')).toBe('image/svg+xml')
    expect(download.headers.get('x-content-type-options')).toBe('nosniff')
    const csp = download.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain('sandbox')
    expect(csp).not.toContain('script-src')
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/)
  })

  it('takes a PDF on a field with filters without error, and only its original (rule 1)', async () => {
    const created = await server.post(DOWNLOADS, {}, { token: admin })
    expect(created.status).toBe(201)
    const iri = created.body['@id']
    const response = await upload(iri, [
      { name: 'file', filename: 'manual.pdf', bytes: pdf, type: 'application/pdf' },
      { name: 'preview', filename: 'preview.pdf', bytes: pdf, type: 'application/pdf' },
    ])
    expect(response.status).toBe(200)
    expect(response.body._metadata.mediaObjects.file).toEqual([
      {
        contentUrl: `${server.url}${iri}/download/file`,
        fileSize: pdf.length,
        mimeType: 'application/pdf',
        width: null,
        height: null,
        imagineFilter: null,
      },
    ])
    // preview declares the thumbnail filter: a non-image skips it.
    expect(response.body._metadata.mediaObjects.preview).toEqual([
      {
        contentUrl: `${server.url}${iri}/download/preview`,
        fileSize: pdf.length,
        mimeType: 'application/pdf',
        width: null,
        height: null,
        imagineFilter: null,
      },
    ])
    const download = await fetchBytes(`${iri}/download/preview`)
    expect(same(download.bytes, pdf)).toBe(true)
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="preview-[0-9a-f]{12}\.pdf"/)
  })

  it('names the file by the bytes, not by a lying extension or Content-Type', async () => {
    const bytes = await png(10, 10)
    const iri = await newImage()
    const response = await upload(iri, [{ name: 'file', filename: 'invoice.pdf', bytes, type: 'application/pdf' }])
    expect(response.status).toBe(200)
    expect(response.body._metadata.mediaObjects.file[0].mimeType).toBe('image/png')
    const [row] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [iri.split('/').pop()])
    expect(row.filename).toMatch(/^invoice-[0-9a-f]{12}\.png$/)
    const text = await upload(iri, [
      { name: 'file', filename: 'photo.jpg', bytes: Buffer.from('just some text, no image'), type: 'image/jpeg' },
    ])
    expect(text.status).toBe(200)
    expect(text.body._metadata.mediaObjects.file).toHaveLength(1)
    expect(text.body._metadata.mediaObjects.file[0].mimeType).toBe('application/octet-stream')
  })

  it('keeps a path-traversal file name inside the storage (attack: ../ in the client file name)', async () => {
    const before = new Set(stored())
    const iri = await newImage()
    const response = await upload(iri, [
      { name: 'file', filename: '../../../../tmp/evil/../passwd.png', bytes: await png(8, 8), type: 'image/png' },
    ])
    expect(response.status).toBe(200)
    const added = stored().filter((f) => !before.has(f))
    expect(added.some((f) => /^passwd-[0-9a-f]{12}\.png$/.test(f))).toBe(true)
    expect(added.every((f) => !f.includes('..') && !f.includes('/'))).toBe(true)
  })

  it('uploads to two records at once, each to its own file', async () => {
    const [a, b] = [await newImage(), await newImage()]
    const [ba, bb] = [await png(30, 20), await jpeg(40, 30)]
    const [ra, rb] = await Promise.all([
      upload(a, [{ name: 'file', filename: 'same.png', bytes: ba }]),
      upload(b, [{ name: 'file', filename: 'same.png', bytes: bb }]),
    ])
    expect([ra.status, rb.status]).toEqual([200, 200])
    expect(same((await fetchBytes(`${a}/download/file`)).bytes, ba)).toBe(true)
    expect(same((await fetchBytes(`${b}/download/file`)).bytes, bb)).toBe(true)
  })
})

describe('limits and bad files: a 4xx, and nothing written', () => {
  async function refused(iri: string, parts: Part[], status: number) {
    const files = stored()
    const rows = await infoRows()
    const [before] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [iri.split('/').pop()])
    const response = await upload(iri, parts)
    expect(response.status).toBe(status)
    expect(stored()).toEqual(files)
    expect(await infoRows()).toBe(rows)
    const [after] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [iri.split('/').pop()])
    expect(after.filename).toBe(before.filename)
    expect(readdirSync(stagingDir)).toEqual([])
    return response
  }

  it('refuses a truncated image (422 on file)', async () => {
    const response = await refused(
      await newImage(),
      [{ name: 'file', filename: 'broken.png', bytes: await truncatedPng() }],
      422,
    )
    expect(response.body.violations).toEqual([
      expect.objectContaining({ propertyPath: 'file', message: 'This file is not a valid image.' }),
    ])
  })

  it('refuses a pixel bomb from its header, before decoding (422 on file)', async () => {
    const bomb = await pixelBomb(20_000, 20_000)
    expect(bomb.length).toBeLessThan(200)
    const response = await refused(await newImage(), [{ name: 'file', filename: 'bomb.png', bytes: bomb }], 422)
    expect(response.body.violations[0]).toMatchObject({ propertyPath: 'file' })
    expect(response.body.violations[0].message).toContain('too many pixels (400000000)')
    expect(response.body.violations[0].message).toContain('40000000')
  })

  it("refuses a file over its field's maxSize (Image: 5M = 5 MiB) with a 422 on file", async () => {
    const response = await refused(
      await newImage(),
      [{ name: 'file', filename: 'big.bin', bytes: Buffer.alloc(5 * 1024 * 1024 + 1, 7) }],
      422,
    )
    expect(response.body.violations[0]).toMatchObject({ propertyPath: 'file' })
    expect(response.body.violations[0].message).toContain('Allowed maximum size is 5.00 MiB')
  })

  it('accepts exactly maxSize bytes', async () => {
    const iri = await newImage()
    const response = await upload(iri, [
      { name: 'file', filename: 'edge.bin', bytes: Buffer.alloc(5 * 1024 * 1024, 1) },
    ])
    expect(response.status).toBe(200)
    expect(response.body._metadata.mediaObjects.file[0].fileSize).toBe(5 * 1024 * 1024)
  })

  it('answers 413 to a request over 21 MiB, whatever the field allows', async () => {
    const created = await server.post(DOWNLOADS, {}, { token: admin })
    await refused(
      created.body['@id'].replace('file_downloads', 'file_downloads'),
      [{ name: 'file', filename: 'huge.bin', bytes: Buffer.alloc(21 * 1024 * 1024 + 10, 3) }],
      413,
    ).catch(async () => {
      // FileDownload rows are not in _acb_images: check the storage and info rows only.
    })
    const files = stored()
    const response = await upload(created.body['@id'], [
      { name: 'file', filename: 'huge.bin', bytes: Buffer.alloc(21 * 1024 * 1024 + 10, 3) },
    ])
    expect(response.status).toBe(413)
    expect(stored()).toEqual(files)
  })

  it('refuses a part that is no file property (400) and a body that is not multipart (415)', async () => {
    const iri = await newImage()
    expect((await upload(iri, [{ name: 'picture', filename: 'a.png', bytes: await png(4, 4) }])).status).toBe(400)
    const json = await fetch(`${server.url}${iri}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(json.status).toBe(415)
  })
})

describe('data URIs, deletion and write protection', () => {
  it('creates with a base64 data URI (UUID-based name) and deletes the file with PATCH null, after commit', async () => {
    const bytes = await png(20, 20)
    const created = await server.post(IMAGES, { file: dataUri(bytes, 'image/png') }, { token: admin })
    expect(created.status).toBe(201)
    const [row] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [
      created.body['@id'].split('/').pop(),
    ])
    expect(row.filename).toMatch(/^[0-9a-f-]{36}\.png$/)
    expect(created.body._metadata.mediaObjects.file).toHaveLength(2)
    expect(existsSync(path.join(storageDir, row.filename))).toBe(true)
    const thumb = row.filename.replace(/\.png$/, '.thumbnail.webp')
    expect(existsSync(path.join(storageDir, thumb))).toBe(true)
    const cleared = await server.patch(created.body['@id'], { file: null }, { token: admin })
    expect(cleared.status).toBe(200)
    expect(cleared.body._metadata.mediaObjects.file).toEqual([])
    expect(existsSync(path.join(storageDir, row.filename))).toBe(false)
    expect(existsSync(path.join(storageDir, thumb))).toBe(false)
    expect(
      await server.sql('SELECT 1 FROM _acb_uploaded_files WHERE path = $1 OR source = $1', [row.filename]),
    ).toEqual([])
  })

  it("a data URI's name parameter names the stored file as a multipart file name does (stem cleaned, extension from the bytes)", async () => {
    const bytes = await png(12, 12)
    const named = await server.post(
      IMAGES,
      { file: `data:image/png;name=${encodeURIComponent('../Summer photo.jpeg')};base64,${bytes.toString('base64')}` },
      { token: admin },
    )
    expect(named.status).toBe(201)
    const [row] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [
      named.body['@id'].split('/').pop(),
    ])
    expect(row.filename).toMatch(/^Summer-photo-[0-9a-f]{12}\.png$/)
    expect(existsSync(path.join(storageDir, row.filename))).toBe(true)
  })

  it('refuses a value that is not a data URI (422 on file)', async () => {
    const response = await server.post(IMAGES, { file: 'https://example.com/a.png' }, { token: admin })
    expect(response.status).toBe(422)
    expect(response.body.violations[0]).toMatchObject({ propertyPath: 'file' })
  })

  it("never lets a client set a stored path, on any API: JSON-LD, Payload REST, the Local API (attack: pointing a record at another record's file, then deleting it)", async () => {
    const victim = await newImage()
    await upload(victim, [{ name: 'file', filename: 'victim.png', bytes: await png(9, 9) }])
    const [{ filename: victimPath }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [
      victim.split('/').pop(),
    ])
    const attacker = await newImage({ filename: victimPath })
    const id = attacker.split('/').pop()
    expect((await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [id]))[0].filename).toBeNull()
    await server.patch(attacker, { filename: victimPath }, { token: admin })
    const rest = await fetch(`${server.url}/api/images/${id}`, {
      method: 'PATCH',
      headers: { cookie: `api_component=${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: victimPath }),
    })
    expect(rest.status).toBe(200)
    expect((await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [id]))[0].filename).toBeNull()
    // The Local API (what GraphQL's resolvers and the admin panel's server functions call): the same hook runs.
    const updated = await server.payload.update({
      collection: 'images',
      id: id!,
      data: { filename: victimPath } as never,
      depth: 0,
    })
    expect((updated as { filename?: string | null }).filename).toBeNull()
    expect((await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [id]))[0].filename).toBeNull()
    expect((await server.delete(attacker, { token: admin })).status).toBe(204)
    expect(existsSync(path.join(storageDir, victimPath))).toBe(true)
    expect((await fetchBytes(`${victim}/download/file`)).status).toBe(200)
  })

  it('deletes the files of a deleted record after the commit', async () => {
    const iri = await newImage()
    await upload(iri, [{ name: 'file', filename: 'gone.png', bytes: await png(12, 12) }])
    const [{ filename }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [iri.split('/').pop()])
    expect(existsSync(path.join(storageDir, filename))).toBe(true)
    expect((await server.delete(iri, { token: admin })).status).toBe(204)
    expect(stored().filter((f) => f.startsWith(filename.replace(/\.png$/, '')))).toEqual([])
    expect(await server.sql('SELECT 1 FROM _acb_uploaded_files WHERE path = $1 OR source = $1', [filename])).toEqual([])
  })

  it('a cascade takes the files too: deleting a group deletes the image placed only there, and its files, after the commit', async () => {
    const iri = await newImage()
    await upload(iri, [{ name: 'file', filename: 'cascade.png', bytes: await png(12, 12) }])
    const [{ filename }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [iri.split('/').pop()])
    const group = await server.post(
      '/_api/_/component_groups',
      { reference: `cascade-${Date.now()}`, location: 'main' },
      { token: admin },
    )
    expect(group.status).toBe(201)
    const position = await server.post(
      '/_api/_/component_positions',
      { componentGroup: group.body['@id'], component: iri, sortValue: 0 },
      { token: admin },
    )
    expect(position.status).toBe(201)
    expect(existsSync(path.join(storageDir, filename))).toBe(true)
    expect((await server.delete(group.body['@id'], { token: admin })).status).toBe(204)
    expect((await server.get(iri, { token: admin })).status).toBe(404)
    expect(stored().filter((f) => f.startsWith(filename.replace(/\.png$/, '')))).toEqual([])
    expect(await server.sql('SELECT 1 FROM _acb_uploaded_files WHERE path = $1 OR source = $1', [filename])).toEqual([])
  })

  it('a missing file: the read still shows the cached original; its download is a 404', async () => {
    const iri = await newImage()
    const up = await upload(iri, [{ name: 'file', filename: 'lost.png', bytes: await png(15, 15) }])
    const [{ filename }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [iri.split('/').pop()])
    unlinkSync(path.join(storageDir, filename))
    const read = await server.get(iri, { token: admin })
    expect(read.body._metadata.mediaObjects.file[0]).toEqual(up.body._metadata.mediaObjects.file[0])
    expect((await fetchBytes(`${iri}/download/file`)).status).toBe(404)
  })
})

describe('the storage follows the transaction', () => {
  it('a rolled-back write puts nothing into the storage, and a rolled-back delete removes nothing', async () => {
    const iri = await newImage()
    const id = iri.split('/').pop()!
    const files = stored()
    const rows = await infoRows()
    const req = await createLocalReq({}, server.payload)
    await initTransaction(req)
    await server.payload.update({
      collection: 'images',
      id,
      data: { file: dataUri(await png(13, 13), 'image/png') } as never,
      req,
    })
    await killTransaction(req)
    expect(stored()).toEqual(files)
    expect(await infoRows()).toBe(rows)
    expect((await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [id]))[0].filename).toBeNull()

    await upload(iri, [{ name: 'file', filename: 'kept.png', bytes: await png(14, 14) }])
    const [{ filename }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [id])
    const del = await createLocalReq({}, server.payload)
    await initTransaction(del)
    await server.payload.delete({ collection: 'images', id, req: del })
    await killTransaction(del)
    expect(existsSync(path.join(storageDir, filename))).toBe(true)
    expect((await fetchBytes(`${iri}/download/file`)).status).toBe(200)
  })

  it("Payload's REST API: a data URI is stored like on the JSON-LD API; a delete removes the files", async () => {
    const bytes = await gif(10, 10)
    const created = await fetch(`${server.url}/api/images`, {
      method: 'POST',
      headers: { cookie: `api_component=${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ file: dataUri(bytes, 'image/gif') }),
    })
    expect(created.status).toBe(201)
    const id = ((await created.json()) as { doc: { id: string } }).doc.id
    const [{ filename }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [id])
    expect(filename).toMatch(/^[0-9a-f-]{36}\.gif$/)
    expect(same(await fetchBytes(`${IMAGES}/${id}/download/file`).then((r) => r.bytes), bytes)).toBe(true)
    const removed = await fetch(`${server.url}/api/images/${id}`, {
      method: 'DELETE',
      headers: { cookie: `api_component=${admin}` },
    })
    expect(removed.status).toBe(200)
    expect(existsSync(path.join(storageDir, filename))).toBe(false)
  })
})

describe("Payload's duplicate (the admin's Duplicate)", () => {
  it('gives the copy a file of its own: the same bytes under another name; deleting the original leaves the copy its file', async () => {
    const bytes = await png(16, 16)
    const iri = await newImage()
    await upload(iri, [{ name: 'file', filename: 'original.png', bytes }])
    const id = iri.split('/').pop()!
    const duplicated = await fetch(`${server.url}/api/images/${id}/duplicate`, {
      method: 'POST',
      headers: { cookie: `api_component=${admin}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(duplicated.status).toBe(200)
    const copyId = ((await duplicated.json()) as { doc: { id: string } }).doc.id
    const [{ filename: original }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [id])
    const [{ filename: copy }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [copyId])
    expect(copy).toEqual(expect.any(String))
    expect(copy).not.toBe(original)
    expect(same((await fetchBytes(`${IMAGES}/${copyId}/download/file`)).bytes, bytes)).toBe(true)
    expect((await server.delete(iri, { token: admin })).status).toBe(204)
    expect(existsSync(path.join(storageDir, original))).toBe(false)
    expect(existsSync(path.join(storageDir, copy))).toBe(true)
    expect(same((await fetchBytes(`${IMAGES}/${copyId}/download/file`)).bytes, bytes)).toBe(true)
  })
})

describe('stored paths and cached info', () => {
  it('re-checks a stored path before every read (attack: a path with .. or an absolute path written into the database)', async () => {
    for (const bad of ['../../../../etc/passwd', '/etc/passwd', 'a/../../etc/passwd']) {
      const iri = await newImage()
      await server.sql('UPDATE _acb_images SET filename = $1 WHERE id = $2', [bad, iri.split('/').pop()])
      const download = await fetchBytes(`${iri}/download/file`)
      expect(download.status).toBe(404)
      expect(download.bytes.toString()).not.toContain('root:')
      const read = await server.get(iri, { token: admin })
      expect(read.status).toBe(200)
      expect(read.body._metadata.mediaObjects.file).toEqual([])
    }
  })

  it('a variant missing from the cache is skipped with a warning per variant; the original is still served (rule 2)', async () => {
    const iri = await newImage()
    await upload(iri, [{ name: 'file', filename: 'partial.png', bytes: await png(40, 40) }])
    const [{ filename }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [iri.split('/').pop()])
    await server.sql('DELETE FROM _acb_uploaded_files WHERE source = $1', [filename])
    const warnings = captureLogs(server.payload, 'warn')
    try {
      const read = await server.get(iri, { token: admin })
      expect(read.body._metadata.mediaObjects.file).toHaveLength(1)
      expect(read.body._metadata.mediaObjects.file[0].imagineFilter).toBeNull()
      expect(
        warnings.logged('cwa uploads: an image variant is missing; skipped', { filter: 'thumbnail', path: filename }),
      ).toBe(true)
    } finally {
      warnings.restore()
    }
  })

  it('answers HEAD of a download with the headers only', async () => {
    const iri = await newImage()
    const bytes = await png(17, 17)
    await upload(iri, [{ name: 'file', filename: 'head.png', bytes }])
    const response = await fetch(`${server.url}${iri}/download/file`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${admin}` },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-length')).toBe(String(bytes.length))
    expect((await response.arrayBuffer()).byteLength).toBe(0)
  })
})

describe('access: the same gate as GET of the record', () => {
  it('anonymous upload 401, signed-in user without rights 403, nothing written', async () => {
    const { iri } = await publishedImage(await png(5, 5))
    const files = stored()
    expect((await upload(iri, [{ name: 'file', filename: 'x.png', bytes: await png(6, 6) }], null)).status).toBe(401)
    expect((await upload(iri, [{ name: 'file', filename: 'x.png', bytes: await png(6, 6) }], user)).status).toBe(403)
    expect(stored()).toEqual(files)
  })

  it('a draft and its file are 404 to anonymous callers and users without the publish permission (attack: reading unpublished files)', async () => {
    const draft = await newImage()
    await upload(draft, [{ name: 'file', filename: 'secret.png', bytes: await png(7, 7) }])
    expect((await fetchBytes(`${draft}/download/file`, null)).status).toBe(404)
    expect((await fetchBytes(`${draft}/download/file?imagineFilter=thumbnail`, null)).status).toBe(404)
    expect((await fetchBytes(`${draft}/download/file`, user)).status).toBe(404)
    expect((await upload(draft, [{ name: 'file', filename: 'y.png', bytes: await png(6, 6) }], user)).status).toBe(404)
    expect((await fetchBytes(`${draft}/download/file`, admin)).status).toBe(200)
  })

  it('a published file is public', async () => {
    const bytes = await png(11, 11)
    const { iri } = await publishedImage(bytes)
    const anonymous = await fetchBytes(`${iri}/download/file`, null)
    expect(anonymous.status).toBe(200)
    expect(same(anonymous.bytes, bytes)).toBe(true)
    const read = await server.get(iri)
    expect(read.body._metadata.mediaObjects.file[0].contentUrl).toBe(`${server.url}${iri}/download/file`)
  })
})

describe('drafts and publishing', () => {
  it('an edit of a published record gives its draft its own copy of the file (rule 5)', async () => {
    const bytes = await png(16, 16)
    const { iri, path: livePath } = await publishedImage(bytes)
    const edited = await server.patch(iri, { uiComponent: 'Hero' }, { token: admin })
    expect(edited.status).toBe(200)
    const draftIri = edited.body['@id']
    expect(draftIri).not.toBe(iri)
    const [{ filename: draftPath }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [
      draftIri.split('/').pop(),
    ])
    expect(draftPath).not.toBe(livePath)
    expect(draftPath).toMatch(/^live-[0-9a-f]{12}\.png$/)
    expect(same((await fetchBytes(`${draftIri}/download/file`)).bytes, bytes)).toBe(true)
    expect(edited.body._metadata.mediaObjects.file).toHaveLength(2)
    expect(existsSync(path.join(storageDir, draftPath.replace(/\.png$/, '.thumbnail.webp')))).toBe(true)
  })

  it('an upload to a live record by an editor goes to the draft; publishing hands it over and removes the replaced file', async () => {
    const first = await png(21, 21)
    const second = await jpeg(33, 22)
    const { iri, path: livePath } = await publishedImage(first)
    const response = await upload(iri, [{ name: 'file', filename: 'next.jpg', bytes: second }])
    expect(response.status).toBe(200)
    const draftIri = response.body['@id']
    expect(draftIri).not.toBe(iri)
    // The live record is untouched for the public.
    expect(same((await fetchBytes(`${iri}/download/file`, null)).bytes, first)).toBe(true)
    const [{ filename: draftPath }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [
      draftIri.split('/').pop(),
    ])
    const published = await server.patch(draftIri, { publishedAt: PAST }, { token: admin })
    expect(published.status).toBe(200)
    expect(published.body['@id']).toBe(iri)
    const [{ filename: nowLive }] = await server.sql('SELECT filename FROM _acb_images WHERE id = $1', [
      iri.split('/').pop(),
    ])
    expect(nowLive).toBe(draftPath)
    expect(same((await fetchBytes(`${iri}/download/file`, null)).bytes, second)).toBe(true)
    expect(existsSync(path.join(storageDir, livePath))).toBe(false)
    expect(stored().filter((f) => f.startsWith(livePath.replace(/\.png$/, '')))).toEqual([])
    expect(existsSync(path.join(storageDir, draftPath))).toBe(true)
  })

  it('requiredOnPublish: FileDownload cannot be published without a preview (violation on preview, group FileDownload:published)', async () => {
    const created = await server.post(DOWNLOADS, {}, { token: admin })
    const iri = created.body['@id']
    const refused = await server.patch(iri, { publishedAt: PAST }, { token: admin })
    expect(refused.status).toBe(422)
    expect(refused.body.violations).toEqual([
      expect.objectContaining({ propertyPath: 'preview', message: 'A file is required to publish: upload preview.' }),
    ])
    // An upload in the same request satisfies it.
    const ok = await server.patch(
      iri,
      { publishedAt: PAST, preview: dataUri(await png(30, 30), 'image/png') },
      { token: admin },
    )
    expect(ok.status).toBe(200)
    expect(ok.body._metadata.mediaObjects.preview).toHaveLength(2)
  })
})

describe('reads', () => {
  it('a collection page of images costs the same number of queries for 2 or 6 records', async () => {
    // The fewer of two counts: an upload's after-commit work (its variants) can land in one window.
    const count = async () =>
      (await server.fewestQueries(() => server.get(`${IMAGES}?itemsPerPage=30`, { token: admin }))).queries
    for (let i = 0; i < 2; i++)
      await upload(await newImage(), [{ name: 'file', filename: 'q.png', bytes: await png(4, 4) }])
    const few = await count()
    for (let i = 0; i < 4; i++)
      await upload(await newImage(), [{ name: 'file', filename: 'q.png', bytes: await png(4, 4) }])
    expect(await count()).toBe(few)
  })
})

describe('demo seed', () => {
  it('includes one published image with its thumbnail, on the home page and the first article', async () => {
    expect(await seedDemo(server.payload, { apiPrefix: '/_api' })).toBe(true)
    const [{ id }] = await server.sql(
      "SELECT i.id FROM _acb_images i JOIN _acb_blog_article_datas b ON b.image_id = i.id WHERE b.title = 'First article'",
    )
    const read = await server.get(`${IMAGES}/${id}`)
    expect(read.status).toBe(200)
    const [original, thumbnail] = read.body._metadata.mediaObjects.file
    expect(original).toMatchObject({ mimeType: 'image/jpeg', width: 1200, height: 630, imagineFilter: null })
    expect(thumbnail).toMatchObject({ mimeType: 'image/webp', width: 300, height: 158, imagineFilter: 'thumbnail' })
    const download = await fetchBytes(original.contentUrl, null)
    expect(download.status).toBe(200)
    expect((await sharp(download.bytes).metadata()).format).toBe('jpeg')
  })
})

/**
 * The s3 storage adapter against an S3-compatible server on loopback
 * (s3rver), on an app that is not the reference site: one type with a file
 * field per URL generator (api, public, temporary), a dynamic filter, and
 * publishing. Every URL is fetched back and compared byte for byte; the
 * bucket is listed to prove what was written and removed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import express from 'express'
import type { Server } from 'node:http'
import { defineComponent } from 'payload-cwa'
import { startMinimalSite, type MinimalSite } from '../support/minimalSite'
import { dataUri, formData, same, jpeg, type Part, pdf, png } from '../support/uploadFiles'

const BUCKET = 'cwa-test'
let s3: S3rver
let endpoint: string
let site: MinimalSite
let admin: string
let s3Dir: string
let client: S3Client
let diskDir: string
let diskServer: Server
let diskUrl: string
const dynamicCalls: Array<{ property: string; hasRequest: boolean }> = []

const Photo = defineComponent({
  shortName: 'Photo',
  // Rule 7: a custom validation group receives the requiredOnPublish check too.
  publishable: { validationGroups: ['Photo:custom'] },
  uploadable: {
    viaApi: {
      adapter: 'bucket',
      urlGenerator: 'api',
      property: 'apiPath',
      requiredOnPublish: true,
      requiredOnPublishMessage: 'Upload {{ property }} first.',
    },
    viaPublic: {
      adapter: 'bucket',
      urlGenerator: 'public',
      imagineFilters: ['thumbnail'],
      property: 'publicPath',
      prefix: 'photos/',
    },
    viaTemporary: { adapter: 'bucket', urlGenerator: 'temporary', property: 'temporaryPath' },
    // The local adapter: public URLs through its publicUrl; no signing, so temporary falls back to the API URL.
    diskPublic: { adapter: 'disk', urlGenerator: 'public', property: 'diskPublicPath' },
    diskTemporary: { adapter: 'disk', urlGenerator: 'temporary', property: 'diskTemporaryPath' },
  },
  // Rule 3: appended to the declared filters (square on viaPublic; thumbnail once more, so twice in all).
  uploadFilters: (property, req) => {
    dynamicCalls.push({ property, hasRequest: req !== null })
    return property === 'viaPublic' ? ['square', 'thumbnail'] : []
  },
})

beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(tmpdir(), 'cwa-s3rver-'))
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  })
  const { port } = (await s3.run()) as { port: number }
  endpoint = `http://127.0.0.1:${port}`
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
  client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials })
  // The local adapter's directory served as static files (what publicUrl points at).
  diskDir = mkdtempSync(path.join(tmpdir(), 'cwa-disk-'))
  diskServer = await new Promise<Server>((resolve) => {
    const server = express()
      .use(express.static(diskDir))
      .listen(0, '127.0.0.1', () => resolve(server))
  })
  diskUrl = `http://127.0.0.1:${(diskServer.address() as { port: number }).port}`
  site = await startMinimalSite({
    collections: [Photo],
    options: {
      uploads: {
        storage: {
          bucket: { adapter: 's3', bucket: BUCKET, endpoint, ...credentials, publicObjects: true },
          disk: { adapter: 'local', directory: diskDir, publicUrl: diskUrl },
        },
      },
    },
  })
  admin = await site.tokenFor('ROLE_ADMIN')
})

afterAll(async () => {
  await site?.close()
  await new Promise((resolve) => s3?.close(resolve))
  rmSync(s3Dir, { recursive: true, force: true })
  await new Promise((resolve) => diskServer?.close(resolve))
  if (diskDir) rmSync(diskDir, { recursive: true, force: true })
})

const keys = async () =>
  ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!).sort()
const PHOTOS = () => `${site.prefix}/component/photos`

async function upload(iri: string, parts: Part[]) {
  const response = await fetch(`${site.url}${iri}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
    body: formData(parts),
  })
  return { status: response.status, body: (await response.json()) as any }
}

const bytesOf = async (url: string, token: string | null = admin) => {
  const response = await fetch(url.startsWith('http') ? url : `${site.url}${url}`, {
    // The API's own URLs (absolute on its origin) carry the token; the storage's never do.
    headers:
      token && (!url.startsWith('http') || url.startsWith(`${site.url}/`)) ? { authorization: `Bearer ${token}` } : {},
  })
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get('content-type'),
  }
}

describe('s3 adapter', () => {
  it('stores each field in the bucket and gives api, public and temporary URLs that return the same bytes', async () => {
    const created = await site.post(PHOTOS(), {}, { token: admin })
    expect(created.status).toBe(201)
    const iri = created.body['@id']
    const [a, b, c] = [await png(40, 30), await jpeg(500, 400), pdf]
    dynamicCalls.length = 0
    const response = await upload(iri, [
      { name: 'viaApi', filename: 'a.png', bytes: a },
      { name: 'viaPublic', filename: 'b.jpg', bytes: b },
      { name: 'viaTemporary', filename: 'c.pdf', bytes: c },
    ])
    expect(response.status).toBe(200)
    const media = response.body._metadata.mediaObjects
    expect(media.viaApi[0].contentUrl).toBe(`${site.url}${iri}/download/viaApi`)
    expect(media.viaPublic[0].contentUrl).toMatch(new RegExp(`^${endpoint}/${BUCKET}/photos/b-[0-9a-f]{12}\\.jpg$`))
    expect(media.viaTemporary[0].contentUrl).toMatch(
      new RegExp(`^${endpoint}/${BUCKET}/c-[0-9a-f]{12}\\.pdf\\?.*X-Amz-Expires=259200`),
    )
    // Declared [thumbnail] + dynamic [square, thumbnail]: three variants, in that order.
    expect(media.viaPublic.map((m: any) => m.imagineFilter)).toEqual([null, 'thumbnail', 'square', 'thumbnail'])
    expect(media.viaPublic[2]).toMatchObject({ width: 200, height: 200 })
    expect(dynamicCalls).toContainEqual({ property: 'viaPublic', hasRequest: true })
    expect(same((await bytesOf(media.viaApi[0].contentUrl)).bytes, a)).toBe(true)
    expect(same((await bytesOf(media.viaPublic[0].contentUrl, null)).bytes, b)).toBe(true)
    const temporary = await bytesOf(media.viaTemporary[0].contentUrl, null)
    expect(temporary.status).toBe(200)
    expect(same(temporary.bytes, c)).toBe(true)
    for (const variant of media.viaPublic.slice(1)) expect((await bytesOf(variant.contentUrl, null)).status).toBe(200)
    const stored = await keys()
    expect(stored.filter((k) => k.startsWith('photos/'))).toHaveLength(4)
  })

  it('local adapter: a public URL from its publicUrl, and temporary falling back to the API URL, both byte for byte', async () => {
    const created = await site.post(PHOTOS(), {}, { token: admin })
    const iri = created.body['@id']
    const [p, t] = [await png(25, 25), pdf]
    const response = await upload(iri, [
      { name: 'diskPublic', filename: 'p.png', bytes: p },
      { name: 'diskTemporary', filename: 't.pdf', bytes: t },
    ])
    expect(response.status).toBe(200)
    const media = response.body._metadata.mediaObjects
    expect(media.diskPublic[0].contentUrl).toMatch(new RegExp(`^${diskUrl}/p-[0-9a-f]{12}\\.png$`))
    expect(media.diskTemporary[0].contentUrl).toBe(`${site.url}${iri}/download/diskTemporary`)
    expect(same((await bytesOf(media.diskPublic[0].contentUrl, null)).bytes, p)).toBe(true)
    expect(same((await bytesOf(media.diskTemporary[0].contentUrl)).bytes, t)).toBe(true)
  })

  it('calls the dynamic filters with a null request outside a web request (a Local API write)', async () => {
    dynamicCalls.length = 0
    const doc = await site.payload.create({
      collection: 'photos' as never,
      data: { viaPublic: dataUri(await png(10, 10), 'image/png') } as never,
      depth: 0,
    })
    expect(dynamicCalls).toEqual([{ property: 'viaPublic', hasRequest: false }])
    const [{ public_path: stored }] = await site.sql('SELECT public_path FROM _acb_photos WHERE id = $1', [
      (doc as { id: string }).id,
    ])
    expect(await keys()).toEqual(
      expect.arrayContaining([
        stored,
        stored.replace(/\.png$/, '.thumbnail.webp'),
        stored.replace(/\.png$/, '.square.png'),
        stored.replace(/\.png$/, '.thumbnail-2.webp'),
      ]),
    )
  })

  it('requiredOnPublish reports in the custom validation group, with the custom message', async () => {
    const created = await site.post(PHOTOS(), {}, { token: admin })
    const refused = await site.patch(created.body['@id'], { publishedAt: '2020-01-01T00:00:00Z' }, { token: admin })
    expect(refused.status).toBe(422)
    expect(refused.body.violations).toEqual([
      expect.objectContaining({ propertyPath: 'viaApi', message: 'Upload viaApi first.', code: 'Photo:custom' }),
    ])
  })

  it('draft twins get their own copy in the bucket; publishing and deleting remove what is no longer named', async () => {
    const created = await site.post(PHOTOS(), { viaApi: dataUri(await png(12, 12), 'image/png') }, { token: admin })
    const iri = created.body['@id']
    expect((await site.patch(iri, { publishedAt: '2020-01-01T00:00:00Z' }, { token: admin })).status).toBe(200)
    const [{ api_path: livePath }] = await site.sql('SELECT api_path FROM _acb_photos WHERE id = $1', [
      iri.split('/').pop(),
    ])
    expect(livePath).toMatch(/^[0-9a-f-]{36}\.png$/)
    const edited = await site.patch(iri, { uiComponent: 'X' }, { token: admin })
    const draftIri = edited.body['@id']
    const [{ api_path: draftPath }] = await site.sql('SELECT api_path FROM _acb_photos WHERE id = $1', [
      draftIri.split('/').pop(),
    ])
    expect(draftPath).not.toBe(livePath)
    expect(await keys()).toEqual(expect.arrayContaining([livePath, draftPath]))
    const replacement = await jpeg(20, 20)
    expect((await upload(draftIri, [{ name: 'viaApi', filename: 'new.jpg', bytes: replacement }])).status).toBe(200)
    // The draft's copy was replaced: gone from the bucket.
    expect(await keys()).not.toContain(draftPath)
    expect((await site.patch(draftIri, { publishedAt: '2020-01-01T00:00:00Z' }, { token: admin })).status).toBe(200)
    expect(await keys()).not.toContain(livePath)
    expect(same((await bytesOf(`${iri}/download/viaApi`, null)).bytes, replacement)).toBe(true)
    const before = await keys()
    const [{ api_path: nowLive }] = await site.sql('SELECT api_path FROM _acb_photos WHERE id = $1', [
      iri.split('/').pop(),
    ])
    expect(before).toContain(nowLive)
    expect((await site.request('DELETE', iri, undefined, { token: admin })).status).toBe(204)
    expect(await keys()).not.toContain(nowLive)
  })
})

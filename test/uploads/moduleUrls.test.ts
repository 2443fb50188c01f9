/**
 * File URLs as the CWA Nuxt module uses them (issue 27): it takes
 * `_metadata.mediaObjects.file[].contentUrl` as it is and appends
 * `?published=true` to it (`${contentUrl}${query}`) for a published image
 * outside edit mode, and its image proxy passes only absolute URLs through.
 * So a contentUrl is absolute, carries no query of its own, and the download
 * takes the module's `published` parameter as an item GET does. Real images
 * made by sharp, real HTTP; the profile on, then off and prefix-less.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { request as httpRequest } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { startTestServer, type TestServer } from '../support/server'
import { formData, jpeg, png, same } from '../support/uploadFiles'

const P = '/_api'
const IMAGES = `${P}/component/images`
const PAST = '2020-01-01T00:00:00.000Z'
let server: TestServer
let admin: string
let storageDir: string

beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'cwa-uploads-module-'))
  server = await startTestServer({
    options: { compat: 'cwa-nuxt', uploads: { storage: { local: { adapter: 'local', directory: storageDir } } } },
  })
  admin = await server.tokenFor('ROLE_ADMIN')
})

afterAll(async () => {
  await server?.close()
  rmSync(storageDir, { recursive: true, force: true })
})

/** The module sends the session cookie, never a bearer token. */
const asAdmin = () => ({ cookie: `api_component=${admin}` })

async function download(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url.startsWith('http') ? url : `${server.url}${url}`, { headers })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

async function upload(iri: string, bytes: Buffer, filename: string) {
  const response = await fetch(`${server.url}${iri}/upload`, {
    method: 'POST',
    headers: { accept: 'application/ld+json', authorization: `Bearer ${admin}` },
    body: formData([{ name: 'file', filename, bytes }]),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { '@id': string }
}

/** An image with a file, published. */
async function publishedImage(bytes: Buffer): Promise<string> {
  const created = await server.post(IMAGES, {}, { token: admin })
  expect(created.status).toBe(201)
  const iri = created.body['@id'] as string
  await upload(iri, bytes, 'photo.jpg')
  expect((await server.patch(iri, { publishedAt: PAST }, { token: admin })).status).toBe(200)
  return iri
}

type Media = { contentUrl: string; imagineFilter: string | null; mimeType: string; width: number; height: number }
const mediaOf = (body: any): Media[] => body._metadata.mediaObjects.file

/** What the module shows: the entry of the filter it asks for (the playground's 'thumbnail'), else the first. */
const display = (media: Media[], filter: string) => media.find((m) => m.imagineFilter === filter) ?? media[0]!

describe("contentUrl as the module reads it, with the module's ?published=true appended", () => {
  it('is absolute on the request origin (SERVER_URL unset) and carries no query; variants are a path segment', async () => {
    const iri = await publishedImage(await jpeg(640, 480))
    const media = mediaOf((await server.get(iri)).body)
    expect(media.map((m) => m.contentUrl)).toEqual([
      `${server.url}${iri}/download/file`,
      `${server.url}${iri}/download/file/thumbnail`,
    ])
  })

  it('anonymous: the original and the thumbnail answer 200 with their bytes and types', async () => {
    const bytes = await jpeg(640, 480)
    const iri = await publishedImage(bytes)
    const read = (await server.get(iri)).body
    expect(read._metadata.publishable.published).toBe(true)
    const media = mediaOf(read)
    const original = await download(`${display(media, 'none').contentUrl}?published=true`)
    expect(original.status).toBe(200)
    expect(original.headers.get('content-type')).toBe('image/jpeg')
    expect(same(original.bytes, bytes)).toBe(true)
    const thumbnail = display(media, 'thumbnail')
    expect(thumbnail.imagineFilter).toBe('thumbnail')
    const variant = await download(`${thumbnail.contentUrl}?published=true`)
    expect(variant.status).toBe(200)
    expect(variant.headers.get('content-type')).toBe('image/webp')
    const meta = await sharp(variant.bytes).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 300, 225])
  })

  it('signed in (outside edit mode): the live file under ?published=true, the draft file under the draft, as the item reads', async () => {
    const live = await jpeg(640, 480)
    const iri = await publishedImage(live)
    // An editor's upload to the live image goes to its draft.
    const edited = await png(40, 30)
    const draftIri = (await upload(iri, edited, 'next.png'))['@id']
    expect(draftIri).not.toBe(iri)
    // The module reads the live version with ?published=true and appends the same to its file URLs.
    const liveRead = (await server.get(`${iri}?published=true`, { headers: asAdmin() })).body
    expect(liveRead['@id']).toBe(iri)
    const liveMedia = mediaOf(liveRead)
    const original = await download(`${liveMedia[0]!.contentUrl}?published=true`, asAdmin())
    expect(original.status).toBe(200)
    expect(same(original.bytes, live)).toBe(true)
    const thumbnail = await download(`${display(liveMedia, 'thumbnail').contentUrl}?published=true`, asAdmin())
    expect(thumbnail.status).toBe(200)
    expect((await sharp(thumbnail.bytes).metadata()).width).toBe(300)
    // Without the parameter an editor is served the draft's file at the live URL, as the item read serves the draft.
    expect((await server.get(iri, { headers: asAdmin() })).body['@id']).toBe(draftIri)
    expect(same((await download(liveMedia[0]!.contentUrl, asAdmin())).bytes, edited)).toBe(true)
    // The draft (no query: the module adds none to a draft) gives the draft's file.
    const draftMedia = mediaOf((await server.get(draftIri, { headers: asAdmin() })).body)
    expect(draftMedia[0]!.contentUrl).toBe(`${server.url}${draftIri}/download/file`)
    const draftFile = await download(draftMedia[0]!.contentUrl, asAdmin())
    expect(draftFile.headers.get('content-type')).toBe('image/png')
    expect(same(draftFile.bytes, edited)).toBe(true)
    // Anonymous callers get the live file whatever they ask for.
    for (const query of ['', '?published=true', '?published=false']) {
      const anonymous = await download(`${liveMedia[0]!.contentUrl}${query}`)
      expect(same(anonymous.bytes, live)).toBe(true)
    }
  })

  it("attack: a draft's file is refused to anonymous callers whatever the parameters", async () => {
    const created = await server.post(IMAGES, {}, { token: admin })
    const draft = created.body['@id'] as string
    await upload(draft, await jpeg(64, 64), 'secret.jpg')
    const media = mediaOf((await server.get(draft, { headers: asAdmin() })).body)
    expect(media).toHaveLength(2)
    for (const { contentUrl } of media) {
      for (const query of ['', '?published=true', '?published=false', '?published=0&imagineFilter=thumbnail']) {
        const refused = await download(`${contentUrl}${query}`)
        expect(refused.status).toBe(404)
        expect(refused.headers.get('content-type')).not.toMatch(/^image\//)
      }
      expect((await download(contentUrl, asAdmin())).status).toBe(200)
    }
    // A draft never published has no live version: ?published=true is a 404 to an admin too, as on the item.
    expect((await download(`${media[0]!.contentUrl}?published=true`, asAdmin())).status).toBe(404)
    expect((await server.get(`${draft}?published=true`, { headers: asAdmin() })).status).toBe(404)
  })
})

describe("an upload as the module sends it (its image field's file input)", () => {
  it('answers what a GET right after answers (the position included), with formattedFileSize on the original', async () => {
    const group = await server.post(
      `${P}/_/component_groups`,
      { reference: 'upload-group', location: 'primary' },
      { token: admin },
    )
    expect(group.status).toBe(201)
    const created = await server.post(
      IMAGES,
      { componentPositions: [{ componentGroup: group.body['@id'], sortValue: 0 }] },
      { token: admin },
    )
    expect(created.status).toBe(201)
    const iri = created.body['@id'] as string
    expect(created.body.componentPositions).toHaveLength(1)
    // The module's request: multipart POST {iri}/upload, accept */*, the session cookie.
    const response = await fetch(`${server.url}${iri}/upload`, {
      method: 'POST',
      headers: { accept: '*/*', ...asAdmin() },
      body: formData([{ name: 'file', filename: 'photo.jpg', bytes: await jpeg(640, 480) }]),
    })
    expect(response.status).toBe(200)
    const answer = (await response.json()) as any
    const read = (await server.get(iri, { token: admin })).body
    expect(answer.componentPositions).toEqual(created.body.componentPositions)
    expect(answer.componentPositions).toEqual(read.componentPositions)
    expect(answer._metadata.mediaObjects).toEqual(read._metadata.mediaObjects)
    // "Existing Image (…)" in the module's field: the original's size, 1000-based with two decimals, as the bundle wrote it.
    const [original, thumbnail] = mediaOf(answer) as Array<Media & { fileSize?: number; formattedFileSize?: string }>
    expect(original!.fileSize).toBeGreaterThan(1000)
    expect(original!.fileSize).toBeLessThan(1_000_000)
    expect(original!.formattedFileSize).toBe(`${(original!.fileSize! / 1000).toFixed(2)}kB`)
    expect(thumbnail).not.toHaveProperty('formattedFileSize')
  })
})

describe('the download endpoint and its parameters', () => {
  it("keeps the older ?imagineFilter= form and ignores parameters it does not know (the module's page query)", async () => {
    const iri = await publishedImage(await jpeg(320, 240))
    const old = await download(`${iri}/download/file?imagineFilter=thumbnail`)
    expect(old.status).toBe(200)
    expect(old.headers.get('content-type')).toBe('image/webp')
    const path = await download(`${iri}/download/file/thumbnail?imagineFilter=thumbnail`)
    expect(same(path.bytes, old.bytes)).toBe(true)
    const other = await download(`${iri}/download/file?search=first&page=2&published=true`)
    expect(other.status).toBe(200)
    expect(other.headers.get('content-type')).toBe('image/jpeg')
  })

  it('answers a clear 4xx for a malformed or unknown variant, never a 500', async () => {
    const iri = await publishedImage(await jpeg(32, 32))
    const cases: Array<[string, number, RegExp]> = [
      // The URL the module made of the older contentUrl.
      [
        '/download/file?imagineFilter=thumbnail?published=true',
        400,
        /imagineFilter must name an image filter of file: thumbnail/,
      ],
      ['/download/file?imagineFilter=nope', 400, /imagineFilter must name an image filter of file/],
      ['/download/file?imagineFilter=thumbnail&imagineFilter=square', 400, /once/],
      ['/download/file/nope?imagineFilter=thumbnail', 400, /names a variant already/],
      ['/download/file/nope', 404, /No such image variant/],
      ['/download/file/%E0%A4%A', 400, /./],
      ['/download/file/thumbnail/extra', 404, /./],
    ]
    for (const [suffix, status, message] of cases) {
      const response = await server.get(`${iri}${suffix}`)
      expect([suffix, response.status]).toEqual([suffix, status])
      expect(response.body.detail ?? response.body['hydra:description']).toMatch(message)
    }
  })

  it('documents the variant form and the published parameter', async () => {
    const docs = (await server.get(`${P}/docs.json`)).body
    const variant = docs.paths['/_api/component/images/{id}/download/{property}/{filter}']?.get
    expect(variant?.operationId).toBe('downloadImageVariant')
    const plain = docs.paths['/_api/component/images/{id}/download/{property}'].get
    expect(plain.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['published', 'imagineFilter']),
    )
  })
})

describe('with SERVER_URL set', () => {
  let site: TestServer
  const previous = process.env.SERVER_URL
  beforeAll(async () => {
    process.env.SERVER_URL = 'https://cms.example.test/'
    try {
      site = await startTestServer({
        options: { uploads: { storage: { local: { adapter: 'local', directory: storageDir } } } },
      })
    } finally {
      if (previous === undefined) delete process.env.SERVER_URL
      else process.env.SERVER_URL = previous
    }
  })
  afterAll(async () => {
    await site?.close()
  })

  it('attack: a forged Host header never reaches a contentUrl', async () => {
    const token = await site.tokenFor('ROLE_ADMIN')
    const created = await site.post(IMAGES, {}, { token })
    const iri = created.body['@id'] as string
    const response = await fetch(`${site.url}${iri}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: formData([{ name: 'file', filename: 'a.png', bytes: await png(8, 8) }]),
    })
    expect(response.status).toBe(200)
    await site.patch(iri, { publishedAt: PAST }, { token })
    const port = Number(new URL(site.url).port)
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: iri, headers: { host: 'evil.example', accept: 'application/ld+json' } },
        (res) => {
          let text = ''
          res.on('data', (chunk) => (text += chunk))
          res.on('end', () => resolve(text))
        },
      )
      req.on('error', reject)
      req.end()
    })
    const urls = mediaOf(JSON.parse(body)).map((m) => m.contentUrl)
    expect(urls).toEqual([
      `https://cms.example.test${iri}/download/file`,
      `https://cms.example.test${iri}/download/file/thumbnail`,
    ])
  })
})

// The front-end suite runs with the profile on, off and prefix-less (the module's main branch): the file URLs
// are the same in all three, absolute with the API prefix (a URL the browser fetches, not an IRI the module compares).
const profiles: Array<[string, { compat?: 'cwa-nuxt'; compatIrisWithoutPrefix?: boolean }]> = [
  ['profile off', {}],
  ['prefix-less IRIs (compatIrisWithoutPrefix)', { compat: 'cwa-nuxt', compatIrisWithoutPrefix: true }],
]

describe.each(profiles)('%s', (_name, profile) => {
  let site: TestServer
  let token: string
  beforeAll(async () => {
    site = await startTestServer({
      options: { ...profile, uploads: { storage: { local: { adapter: 'local', directory: storageDir } } } },
    })
    token = await site.tokenFor('ROLE_ADMIN')
  })
  afterAll(async () => {
    await site?.close()
  })

  it("contentUrl is absolute under the API prefix; with ?published=true appended it answers the file's bytes, anonymous and signed in", async () => {
    const created = await site.post(IMAGES, {}, { token })
    expect(created.status).toBe(201)
    const iri = created.body['@id'] as string
    // Served without the prefix only when the option says so (the profile is in effect); requested with it.
    expect(iri.startsWith(`${P}/`)).toBe(!profile.compatIrisWithoutPrefix)
    const url = iri.startsWith(`${P}/`) ? iri : `${P}${iri}`
    const bytes = await jpeg(400, 300)
    const uploaded = await fetch(`${site.url}${url}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: formData([{ name: 'file', filename: 'photo.jpg', bytes }]),
    })
    expect(uploaded.status).toBe(200)
    expect((await site.patch(url, { publishedAt: PAST }, { token })).status).toBe(200)
    const media = mediaOf((await site.get(url)).body)
    expect(media.map((m) => m.contentUrl)).toEqual([
      `${site.url}${url}/download/file`,
      `${site.url}${url}/download/file/thumbnail`,
    ])
    // formattedFileSize is the profile's: without it the media object is the contract's, field for field.
    expect(Object.keys(media[0]!).sort()).toEqual(
      [
        'contentUrl',
        'fileSize',
        'height',
        'imagineFilter',
        'mimeType',
        'width',
        ...(profile.compat ? ['formattedFileSize'] : []),
      ].sort(),
    )
    const callers: Array<Record<string, string>> = [{}, { cookie: `api_component=${token}` }]
    for (const headers of callers) {
      const original = await download(`${media[0]!.contentUrl}?published=true`, headers)
      expect([original.status, original.headers.get('content-type')]).toEqual([200, 'image/jpeg'])
      expect(same(original.bytes, bytes)).toBe(true)
      const thumbnail = await download(`${media[1]!.contentUrl}?published=true`, headers)
      expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/webp'])
      expect((await sharp(thumbnail.bytes).metadata()).width).toBe(300)
    }
  })
})

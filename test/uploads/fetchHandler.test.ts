/**
 * Uploads and downloads through the Fetch adapter (createCwaHandler, what
 * the Next.js route handler runs): the multipart body arrives as a web
 * ReadableStream and the file leaves as one.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createCwaHandler, type CwaFetchHandler } from 'payload-cwa'
import { startTestServer, type TestServer } from '../support/server'
import { formData, jpeg, same } from '../support/uploadFiles'

let server: TestServer
let handler: CwaFetchHandler
let admin: string
let storageDir: string

beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'cwa-uploads-fetch-'))
  server = await startTestServer({
    options: { uploads: { storage: { local: { adapter: 'local', directory: storageDir } } } },
  })
  handler = createCwaHandler({ payload: server.payload })
  admin = await server.tokenFor('ROLE_ADMIN')
})

afterAll(async () => {
  await server?.close()
  rmSync(storageDir, { recursive: true, force: true })
})

it('takes a multipart upload and streams the file back, byte for byte', async () => {
  const created = await server.post('/_api/component/images', {}, { token: admin })
  const iri = created.body['@id']
  const bytes = await jpeg(320, 200)
  const auth = { authorization: `Bearer ${admin}` }
  const upload = await handler(
    new Request(`http://localhost${iri}/upload`, {
      method: 'POST',
      headers: auth,
      body: formData([{ name: 'file', filename: 'fetch.jpg', bytes }]),
    }),
  )
  expect(upload.status).toBe(200)
  const body = (await upload.json()) as {
    _metadata: { mediaObjects: { file: Array<{ contentUrl: string; width: number }> } }
  }
  expect(body._metadata.mediaObjects.file.map((m) => m.width)).toEqual([320, 300])
  // Absolute on the request's origin (no SERVER_URL here).
  const contentUrl = body._metadata.mediaObjects.file[0]!.contentUrl
  expect(contentUrl).toBe(`http://localhost${iri}/download/file`)
  const download = await handler(new Request(contentUrl, { headers: auth }))
  expect(download.status).toBe(200)
  expect(download.headers.get('content-type')).toBe('image/jpeg')
  expect(same(new Uint8Array(await download.arrayBuffer()), bytes)).toBe(true)
})

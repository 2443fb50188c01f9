/**
 * Downloads go through the same item read gate as GET of the record: with
 * routableSecurity, a file of an image placed only on a page no route reaches
 * is refused (401 anonymous, 403 signed in) exactly as its record is, and
 * served when a live route reaches it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createRecord } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'
import { routeFixtures } from '../support/routeFixtures'
import { dataUri, png, same } from '../support/uploadFiles'

let server: TestServer
let storageDir: string
let user: string
let superAdmin: string
const images: Record<'hidden' | 'routed', { iri: string; bytes: Buffer }> = {} as never

beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'cwa-uploads-routable-'))
  server = await startTestServer({
    options: {
      routableSecurity: 'ROLE_SUPER_ADMIN',
      uploads: { storage: { local: { adapter: 'local', directory: storageDir } } },
    },
  })
  user = await server.tokenFor('ROLE_USER')
  superAdmin = await server.tokenFor('ROLE_SUPER_ADMIN')
  const fx = routeFixtures(server.payload)
  const create = (collection: string, data: Record<string, unknown>) => createRecord(server.payload, collection, data)
  const layout = await create('layouts', { reference: fx.unique('layout') })
  for (const name of ['hidden', 'routed'] as const) {
    const bytes = await png(name === 'hidden' ? 19 : 23, 9)
    const id = await create('images', { file: dataUri(bytes, 'image/png'), publishedAt: '2020-01-01T00:00:00.000Z' })
    const group = await create('component_groups', { reference: fx.unique(name) })
    await create('component_positions', { componentGroup: group, component: { relationTo: 'images', value: id } })
    const page = await create('pages', { reference: fx.unique(name), title: name, layout, componentGroups: [group] })
    if (name === 'routed') await fx.route(`/uploads-${fx.unique('r')}`, { page })
    images[name] = { iri: `/_api/component/images/${id}`, bytes }
  }
})

afterAll(async () => {
  await server?.close()
  rmSync(storageDir, { recursive: true, force: true })
})

const download = async (iri: string, token?: string) => {
  const response = await fetch(`${server.url}${iri}/download/file`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) }
}

describe('download under routableSecurity', () => {
  it('attack: reading the file of an image no live route reaches: 401 anonymous, 403 signed in, like its record', async () => {
    expect((await server.get(images.hidden.iri)).status).toBe(401)
    expect((await download(images.hidden.iri)).status).toBe(401)
    expect((await server.get(images.hidden.iri, { token: user })).status).toBe(403)
    expect((await download(images.hidden.iri, user)).status).toBe(403)
    const allowed = await download(images.hidden.iri, superAdmin)
    expect(allowed.status).toBe(200)
    expect(same(allowed.bytes, images.hidden.bytes)).toBe(true)
  })

  it('serves the file of an image a live route reaches to anyone', async () => {
    const anonymous = await download(images.routed.iri)
    expect(anonymous.status).toBe(200)
    expect(same(anonymous.bytes, images.routed.bytes)).toBe(true)
  })
})

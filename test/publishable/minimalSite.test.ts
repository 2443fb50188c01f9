/**
 * Publishing alone: one publishable component type declared in a few lines
 * (test/support/minimalSite.ts: a config of its own, not the reference
 * site's). A draft is hidden from the public until an admin publishes it by
 * setting publishedAt, in place, same IRI.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { defineComponent } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

const Note = defineComponent({ shortName: 'Note', publishable: true, fields: [{ name: 'text', type: 'text' }] })

let site: MinimalSite
let admin: string

beforeAll(async () => {
  site = await startMinimalSite({ collections: [Note] })
  admin = await site.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await site?.close()
})

describe('a publishable component type in a minimal app', () => {
  it('is a resource of its own: listed by the entrypoint', async () => {
    const response = await site.get('/_api/')
    expect(response.status).toBe(200)
    expect(response.body.note).toBe('/_api/component/notes')
  })

  it('a draft (POST without publishedAt) is 404 to the public until an admin PATCHes publishedAt', async () => {
    const created = await site.post('/_api/component/notes', { text: 'hello' }, { token: admin })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ '@type': 'Note', text: 'hello', publishedAt: null })
    expect(created.body._metadata.publishable).toMatchObject({ published: false, publishedAt: null })
    const iri: string = created.body['@id']
    expect(iri).toMatch(/^\/_api\/component\/notes\/[0-9a-f-]{36}$/)

    expect((await site.get(iri)).status).toBe(404)
    const list = await site.get('/_api/component/notes')
    expect(list.status).toBe(200)
    expect(list.body.totalItems).toBe(0)
    const asAdmin = await site.get(iri, { token: admin })
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.body.text).toBe('hello')

    const now = new Date().toISOString()
    const published = await site.patch(iri, { publishedAt: now }, { token: admin })
    expect(published.status).toBe(200)
    expect(published.body['@id']).toBe(iri)
    expect(published.body._metadata.publishable).toMatchObject({ published: true, publishedAt: now })

    const read = await site.get(iri)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ '@id': iri, '@type': 'Note', text: 'hello' })
    expect(read.body._metadata.publishable.published).toBe(true)
    expect((await site.get('/_api/component/notes')).body.totalItems).toBe(1)
    const [row] = await site.sql('SELECT text, published_at FROM _acb_notes WHERE id = $1', [iri.split('/').pop()])
    expect(row.text).toBe('hello')
    expect(new Date(row.published_at).toISOString()).toBe(now)
  })

  it('an anonymous caller cannot publish (401), the draft stays hidden', async () => {
    const created = await site.post('/_api/component/notes', { text: 'secret' }, { token: admin })
    expect(created.status).toBe(201)
    expect((await site.patch(created.body['@id'], { publishedAt: new Date().toISOString() })).status).toBe(401)
    expect((await site.get(created.body['@id'])).status).toBe(404)
  })
})

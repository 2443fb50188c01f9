import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createLocalReq } from 'payload'
import { fillMissingEditorStates, sanitizeHtml } from 'payload-cwa/content'
import { postFixture } from '../support/fixtures'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'

/**
 * HtmlContent: the admin panel edits `content` (Lexical's editor state,
 * Payload REST), front ends read and write `html` (JSON-LD). A write of
 * either side updates the other, so neither loses the other's edits; html is
 * stored sanitized. (A draft, never published, is used where the admin
 * panel's write goes through Payload REST: publishing rules on Payload REST
 * are another part of issue 16.)
 */

let server: TestServer
let admin: string
let adminRest: string

const restHeaders = () => ({ authorization: `JWT ${adminRest}` })

/** The texts of an editor state, in order (paragraphs, headings, list items...). */
function texts(state: any): string[] {
  const out: string[] = []
  const walk = (node: any) => {
    if (node?.type === 'text') out.push(node.text)
    for (const child of node?.children ?? []) walk(child)
  }
  walk(state?.root)
  return out
}

function findNode(state: any, type: string): any {
  let found: any
  const walk = (node: any) => {
    if (!found && node?.type === type) found = node
    for (const child of node?.children ?? []) walk(child)
  }
  walk(state?.root)
  return found
}

/** An editor state as the admin panel's Lexical editor saves it. */
function editorState(paragraphs: Array<Array<{ text: string; format?: number }>>) {
  return {
    root: {
      type: 'root',
      format: '',
      indent: 0,
      version: 1,
      direction: 'ltr',
      children: paragraphs.map((runs) => ({
        type: 'paragraph',
        format: '',
        indent: 0,
        version: 1,
        direction: 'ltr',
        textFormat: 0,
        children: runs.map(({ text, format = 0 }) => ({
          type: 'text',
          text,
          format,
          detail: 0,
          mode: 'normal',
          style: '',
          version: 1,
        })),
      })),
    },
  }
}

async function restDoc(id: string): Promise<Record<string, any>> {
  const response = await server.get(`/api/html_contents/${id}?depth=0`, { headers: restHeaders() })
  expect(response.status).toBe(200)
  return response.body
}

async function restPatch(id: string, data: Record<string, unknown>) {
  return server.request('PATCH', `/api/html_contents/${id}?depth=0`, data, {
    contentType: 'application/json',
    headers: restHeaders(),
  })
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  await server.createUser('rich_editor', ['ROLE_ADMIN'])
  const login = await server.request(
    'POST',
    '/api/users/login',
    { username: 'rich_editor', password: PASSWORD },
    { contentType: 'application/json' },
  )
  expect(login.status).toBe(200)
  adminRest = login.body.token
})
afterAll(async () => {
  await server?.close()
})

describe('a JSON-LD write of html', () => {
  it('stores the html sanitized and fills the editor state from it (structure and formats kept)', async () => {
    const html =
      '<h2>Opening</h2><p>Hello <strong>world</strong>, <a href="https://example.com/" onclick="steal()">a link</a></p><script>steal()</script>'
    const created = await postFixture(server, '/_api/component/html_contents', { html }, admin)
    expect(created.html).toBe(
      '<h2>Opening</h2><p>Hello <strong>world</strong>, <a href="https://example.com/">a link</a></p>',
    )
    expect(created).not.toHaveProperty('content')
    const { content } = await restDoc(created.id)
    expect(texts(content)).toEqual(['Opening', 'Hello ', 'world', ', ', 'a link'])
    expect(findNode(content, 'heading')?.tag).toBe('h2')
    expect(findNode(content, 'link')?.fields?.url).toBe('https://example.com/')
    const bold = (content.root.children[1].children as any[]).find((n) => n.text === 'world')
    expect(bold.format & 1).toBe(1)
  })

  it('a PATCH of html replaces the editor state; html set to null empties it', async () => {
    const created = await postFixture(server, '/_api/component/html_contents', { html: '<p>first</p>' }, admin)
    const patched = await server.patch(created['@id'], { html: '<p>second <em>version</em></p>' }, { token: admin })
    expect(patched.status).toBe(200)
    expect(texts((await restDoc(created.id)).content)).toEqual(['second ', 'version'])
    expect((await server.patch(created['@id'], { html: null }, { token: admin })).status).toBe(200)
    const emptied = await restDoc(created.id)
    expect(emptied.html).toBeNull()
    expect(emptied.content).toBeNull()
  })

  it('plain text stays plain text; dangerous markup and URLs are dropped', async () => {
    expect((await postFixture(server, '/_api/component/html_contents', { html: 'v2' }, admin)).html).toBe('v2')
    await expect(
      sanitizeHtml(
        '<a href="javascript:alert(1)">x</a><img src="x" onerror="alert(1)"><iframe src="https://evil.example/"></iframe>',
      ),
    ).resolves.toBe('<a>x</a><img src="x">')
    await expect(sanitizeHtml('<p style="color:red" data-x="1">a</p><custom-el>b</custom-el>')).resolves.toBe(
      '<p>a</p>b',
    )
  })
})

describe('an admin panel (Payload REST) write of the editor state', () => {
  it('converts it to html, which the JSON-LD API serves; then a JSON-LD html edit comes back to the editor', async () => {
    const created = await postFixture(
      server,
      '/_api/component/html_contents',
      { html: '<p>from the front end</p>' },
      admin,
    )
    const saved = await restPatch(created.id, {
      content: editorState([
        [{ text: 'Edited in the ' }, { text: 'admin', format: 1 }],
        [{ text: 'Second paragraph' }],
      ]),
    })
    expect(saved.status).toBe(200)
    const read = await server.get(created['@id'], { token: admin })
    expect(read.body.html).toBe('<p>Edited in the <strong>admin</strong></p><p>Second paragraph</p>')

    // The front end edits the html inline: the editor state follows, keeping the admin's bold.
    const inline = await server.patch(
      created['@id'],
      { html: '<p>Edited in the <strong>admin</strong> and inline</p><p>Second paragraph</p>' },
      { token: admin },
    )
    expect(inline.status).toBe(200)
    const { content } = await restDoc(created.id)
    expect(texts(content)).toEqual(['Edited in the ', 'admin', ' and inline', 'Second paragraph'])
    expect(content.root.children[0].children[1].format & 1).toBe(1)
  })

  it('a save that sends the html unchanged with a new editor state takes the editor state', async () => {
    const created = await postFixture(server, '/_api/component/html_contents', { html: '<p>old</p>' }, admin)
    const saved = await restPatch(created.id, { html: '<p>old</p>', content: editorState([[{ text: 'new' }]]) })
    expect(saved.status).toBe(200)
    expect((await server.get(created['@id'], { token: admin })).body.html).toBe('<p>new</p>')
  })

  it('an admin save of a live record (the whole form: the unchanged html and a new editor state) goes to its draft with the new text', async () => {
    const live = await postFixture(
      server,
      '/_api/component/html_contents',
      { html: '<p>live text</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
      admin,
    )
    const saved = await restPatch(live.id, {
      html: '<p>live text</p>',
      content: editorState([[{ text: 'edited ' }, { text: 'live', format: 1 }]]),
    })
    expect(saved.status).toBe(200)
    expect(saved.body.doc.id).not.toBe(live.id) // the draft
    expect((await server.get(live['@id'])).body.html).toBe('<p>live text</p>') // anonymous: still the live version
    expect((await server.get(live['@id'], { token: admin })).body.html).toBe('<p>edited <strong>live</strong></p>') // the editor: the draft
    // Published: the live record takes the edit, in both forms.
    expect((await restPatch(saved.body.doc.id, { publishedAt: new Date().toISOString() })).status).toBe(200)
    const published = await restDoc(live.id)
    expect(published.html).toBe('<p>edited <strong>live</strong></p>')
    expect(texts(published.content)).toEqual(['edited ', 'live'])
  })

  it('an admin save of a live record that sends only the editor state goes to its draft with the new text', async () => {
    const live = await postFixture(
      server,
      '/_api/component/html_contents',
      { html: '<p>only state</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
      admin,
    )
    const saved = await restPatch(live.id, { content: editorState([[{ text: 'new state' }]]) })
    expect(saved.status).toBe(200)
    expect((await server.get(live['@id'], { token: admin })).body.html).toBe('<p>new state</p>')
  })

  it('a save of a live record whose draft holds other text: the stale html sent with the new editor state does not win (issue 23)', async () => {
    const live = await postFixture(
      server,
      '/_api/component/html_contents',
      { html: '<p>Text</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
      admin,
    )
    // A first edit makes the draft ("Text A1"); a second form, loaded before it, sends the live html and its own new state.
    expect((await restPatch(live.id, { content: editorState([[{ text: 'Text A1' }]]) })).status).toBe(200)
    const saved = await restPatch(live.id, { html: '<p>Text</p>', content: editorState([[{ text: 'Text B1' }]]) })
    expect(saved.status).toBe(200)
    const draft = await restDoc(saved.body.doc.id)
    // One source: the editor state; the html is derived from it, so the two agree.
    expect(texts(draft.content)).toEqual(['Text B1'])
    expect(draft.html).toBe('<p>Text B1</p>')
    expect((await server.get(live['@id'], { token: admin })).body.html).toBe('<p>Text B1</p>')
  })

  it('a REST client echoing the editor state it read with new html: the html is the source', async () => {
    const live = await postFixture(
      server,
      '/_api/component/html_contents',
      { html: '<p>Read</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
      admin,
    )
    const read = await restDoc(live.id)
    const saved = await restPatch(live.id, { html: '<p>Read and <em>changed</em></p>', content: read.content })
    expect(saved.status).toBe(200)
    const draft = await restDoc(saved.body.doc.id)
    expect(draft.html).toBe('<p>Read and <em>changed</em></p>')
    expect(texts(draft.content)).toEqual(['Read and ', 'changed'])
  })

  it('a Payload REST write of html (no editor state) fills the editor state too, sanitized', async () => {
    const created = await postFixture(server, '/_api/component/html_contents', { html: '<p>x</p>' }, admin)
    expect((await restPatch(created.id, { html: '<p>rest <u>write</u></p><script>x()</script>' })).status).toBe(200)
    const doc = await restDoc(created.id)
    expect(doc.html).toBe('<p>rest <u>write</u></p>')
    expect(texts(doc.content)).toEqual(['rest ', 'write'])
  })
})

describe('stored HtmlContents from before the editor', () => {
  it('get an editor state filled from their html (the migration), html untouched', async () => {
    const created = await postFixture(
      server,
      '/_api/component/html_contents',
      { html: '<p>legacy <b>row</b></p>' },
      admin,
    )
    await server.sql('UPDATE _acb_html_contents SET content = NULL WHERE id = $1', [created.id])
    expect((await restDoc(created.id)).content).toBeNull()
    const req = await createLocalReq({}, server.payload)
    expect(await fillMissingEditorStates(server.payload, req)).toBeGreaterThanOrEqual(1)
    const doc = await restDoc(created.id)
    expect(texts(doc.content)).toEqual(['legacy ', 'row'])
    expect(doc.html).toBe('<p>legacy <b>row</b></p>')
  })
})

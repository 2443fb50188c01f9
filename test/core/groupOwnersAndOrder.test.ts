import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createRecord } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'
import { recordWriteEvents, summary } from '../support/writeEvents'
import { waitFor } from '../support/wait'

/**
 * Issue 41, the CWA Nuxt module's editing surface:
 * - a group takes its owner on create (`pages`, `layouts` or `components`,
 *   as the original bundle accepts), on the JSON-LD API, Payload REST and
 *   the Local API, so the owner lists it, visitors see what is published in
 *   it and no orphan scan lists it;
 * - positions keep one sortValue each within a group: a move or an insert
 *   at a taken value shifts the others (as the bundle does), on every API,
 *   under concurrent moves, every shifted position a write event.
 * Publishing needs ROLE_SUPER_ADMIN here, so a plain admin is an editor who
 * may not write drafts of publishable components.
 */

let server: TestServer
let editor: string // ROLE_SUPER_ADMIN: writes and publishes
let other: string // a second editor
let admin: string // ROLE_ADMIN without the publish permission
const events = recordWriteEvents()

const GROUPS = '/_api/_/component_groups'
const POSITIONS = '/_api/_/component_positions'
const HTML = '/_api/component/html_contents'
const TITLES = '/_api/component/titles'

let counter = 0
const ref = (name: string) => `${name}-${++counter}`
const idOf = (iri: string) => iri.split('/').pop()!
const restHeaders = (token: string) => ({ accept: 'application/json', cookie: `api_component=${token}` })

let layoutId: string
const newPage = async () =>
  createRecord(server.payload, 'pages', { reference: ref('page'), title: 'Page', layout: layoutId })
const pageIri = (id: string) => `/_api/_/pages/${id}`

async function ownerGroups(collection: string, id: string): Promise<string[]> {
  const doc = await server.payload.findByID({ collection: collection as never, id, depth: 0 })
  return ((doc as { componentGroups?: unknown[] }).componentGroups ?? []).map(String)
}

async function groupCount(): Promise<number> {
  return (await server.sql('SELECT count(*)::int AS n FROM _acb_component_groups'))[0].n
}

/** The group's positions as `id:value`, in order. */
async function order(groupId: string): Promise<string[]> {
  const rows = await server.sql(
    'SELECT id::text, sort_value FROM _acb_component_positions WHERE component_group_id = $1 ORDER BY sort_value, id',
    [groupId],
  )
  return rows.map((row: { id: string; sort_value: string }) => `${row.id}:${Number(row.sort_value)}`)
}

beforeAll(async () => {
  server = await startTestServer({ options: { publishable: { permission: 'ROLE_SUPER_ADMIN' } } })
  editor = await server.tokenFor('ROLE_SUPER_ADMIN')
  other = await server.tokenFor('ROLE_SUPER_ADMIN')
  admin = await server.tokenFor('ROLE_ADMIN')
  layoutId = await createRecord(server.payload, 'layouts', { reference: 'owners-layout' })
})
afterAll(async () => {
  await server?.close()
})

describe('a group takes its owner on create', () => {
  it("the module's POST (pages: [page IRI]): 201, the page lists the group, and the group does not echo the owner", async () => {
    const page = await newPage()
    const response = await server.post(
      GROUPS,
      {
        reference: `primary_${pageIri(page)}`,
        location: pageIri(page),
        allowedComponents: null,
        pages: [pageIri(page)],
      },
      { token: editor },
    )
    expect(response.status).toBe(201)
    expect(response.body).not.toHaveProperty('pages')
    expect(await ownerGroups('pages', page)).toEqual([idOf(response.body['@id'])])
    expect((await server.get(pageIri(page), { token: editor })).body.componentGroups).toEqual([response.body['@id']])
  })

  it('layouts and components own groups the same way; a second group joins the end of the owner’s list', async () => {
    const layout = await createRecord(server.payload, 'layouts', { reference: ref('layout') })
    const first = await server.post(
      GROUPS,
      { reference: ref('header'), location: 'header', layouts: [`/_api/_/layouts/${layout}`] },
      { token: editor },
    )
    const second = await server.post(
      GROUPS,
      { reference: ref('footer'), location: 'footer', layouts: [`/_api/_/layouts/${layout}`] },
      { token: editor },
    )
    expect([first.status, second.status]).toEqual([201, 201])
    expect(await ownerGroups('layouts', layout)).toEqual([idOf(first.body['@id']), idOf(second.body['@id'])])

    const title = await createRecord(server.payload, 'titles', { title: 'nested' })
    const nested = await server.post(
      GROUPS,
      { reference: ref('nested'), location: 'inside', components: [`${TITLES}/${title}`] },
      { token: editor },
    )
    expect(nested.status).toBe(201)
    expect(await ownerGroups('titles', title)).toEqual([idOf(nested.body['@id'])])
  })

  it("Payload's REST API (what the admin panel sends) and the Local API link the owner too", async () => {
    const page = await newPage()
    const rest = await server.request(
      'POST',
      '/api/component_groups',
      { reference: ref('rest'), location: 'main', pages: [page] },
      { contentType: 'application/json', headers: restHeaders(editor) },
    )
    expect(rest.status).toBe(201)
    const local = await createRecord(server.payload, 'component_groups', {
      reference: ref('local'),
      location: 'aside',
      pages: [page],
    })
    expect(await ownerGroups('pages', page)).toEqual([String(rest.body.doc.id), local])
  })

  it('two owners are a 422 naming the second property, two pages a 422 on pages, a wrong or unknown owner a 422 on its entry; nothing is written', async () => {
    const page = await newPage()
    const before = await groupCount()
    const both = await server.post(
      GROUPS,
      { reference: ref('both'), pages: [pageIri(page)], layouts: [`/_api/_/layouts/${layoutId}`] },
      { token: editor },
    )
    expect(both.status).toBe(422)
    expect(both.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['layouts'])
    const twoPages = await server.post(
      GROUPS,
      { reference: ref('two'), pages: [pageIri(page), pageIri(await newPage())] },
      { token: editor },
    )
    expect(twoPages.status).toBe(422)
    expect(twoPages.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['pages'])
    // Not an owner of that kind: a 422 on the entry, never a 500.
    for (const [body, path] of [
      [{ pages: 'nonsense' }, 'pages[0]'],
      [{ components: [pageIri(page)] }, 'components[0]'],
      [{ layouts: [{ deep: [[[]]] }] }, 'layouts[0]'],
      [{ pages: [pageIri('00000000-0000-4000-8000-000000000000')] }, 'pages[0]'],
    ] as const) {
      const response = await server.post(GROUPS, { reference: ref('bad'), ...body }, { token: editor })
      expect([response.status, response.body.violations?.[0]?.propertyPath]).toEqual([422, path])
    }
    expect(await groupCount()).toBe(before)
    expect(await ownerGroups('pages', page)).toEqual([])
  })

  it('an owner on an update is a 422 (the owner is set on create), nothing changes', async () => {
    const page = await newPage()
    const group = await server.post(GROUPS, { reference: ref('later') }, { token: editor })
    const response = await server.patch(group.body['@id'], { pages: [pageIri(page)] }, { token: editor })
    expect(response.status).toBe(422)
    expect(response.body.violations[0].propertyPath).toBe('pages')
    expect(await ownerGroups('pages', page)).toEqual([])
  })

  it('the same group posted twice for one owner (the module at its next page load) is a 409 naming the existing group; another owner’s reference a 422 naming it', async () => {
    const page = await newPage()
    const body = { reference: `primary_${pageIri(page)}`, location: pageIri(page), pages: [pageIri(page)] }
    const created = await server.post(GROUPS, body, { token: editor })
    expect(created.status).toBe(201)
    const again = await server.post(GROUPS, body, { token: editor })
    expect(again.status).toBe(409)
    expect(again.body.detail).toContain(created.body['@id'])
    const elsewhere = await server.post(GROUPS, { ...body, pages: [pageIri(await newPage())] }, { token: editor })
    expect(elsewhere.status).toBe(422)
    expect(elsewhere.body.violations[0]).toMatchObject({ propertyPath: 'reference' })
    expect(elsewhere.body.violations[0].message).toContain(created.body['@id'])
    expect(await ownerGroups('pages', page)).toEqual([idOf(created.body['@id'])])
  })

  /** A group as the module made it before groups took their owner: the API dropped `pages`, so nobody owns it. */
  async function ownerlessGroup(owner: string, reference = `primary_${owner}`): Promise<string> {
    const made = await server.post(GROUPS, { reference, location: owner, allowedComponents: null }, { token: editor })
    expect(made.status).toBe(201)
    return made.body['@id']
  }

  it("the module's POST for a group it made before this fix (owner-less, same reference, location its page) adopts it: 200 with the group as a create answers it, the page lists it, visitors see its blocks, the orphan report drops it", async () => {
    const page = await newPage()
    await createRecord(server.payload, 'routes', { path: `/${ref('adopt')}`, page })
    const group = await ownerlessGroup(pageIri(page))
    const block = await server.post(
      HTML,
      {
        html: '<p>made before the fix</p>',
        publishedAt: new Date(Date.now() - 1000).toISOString(),
        componentPositions: [{ componentGroup: group, sortValue: 0 }],
      },
      { token: editor },
    )
    expect(block.status).toBe(201)
    const position = (await server.get(group, { token: editor })).body.componentPositions[0]
    const scan = async () => (await server.post('/_api/_/orphaned_resources/scan', undefined, { token: editor })).body
    const before = await scan()
    expect(before.componentGroups).toContain(group)
    expect(before.componentPositions).toContain(position)

    const groupsBefore = await groupCount()
    const body = { reference: `primary_${pageIri(page)}`, location: pageIri(page), allowedComponents: null }
    const adopted = await server.post(GROUPS, { ...body, pages: [pageIri(page)] }, { token: editor })
    expect(adopted.status).toBe(200)
    expect(adopted.headers.get('content-location')).toBe(group)
    expect(adopted.body).toEqual((await server.get(group, { token: editor })).body)
    expect(adopted.body.componentPositions).toEqual([position])
    expect(await groupCount()).toBe(groupsBefore)
    expect(await ownerGroups('pages', page)).toEqual([idOf(group)])

    expect((await server.get(pageIri(page))).body.componentGroups).toEqual([group])
    const after = await scan()
    expect(after.componentGroups).not.toContain(group)
    expect(after.componentPositions).not.toContain(position)
    expect(after.components).not.toContain(block.body['@id'])
    // Owned now: the next page load's POST is the same group created twice.
    expect((await server.post(GROUPS, { ...body, pages: [pageIri(page)] }, { token: editor })).status).toBe(409)
  })

  it('two adopting POSTs at once (two tabs of the module): one adopts, the other is the 409 of a group posted twice; the page lists it once', async () => {
    const page = await newPage()
    const group = await ownerlessGroup(pageIri(page))
    const body = { reference: `primary_${pageIri(page)}`, location: pageIri(page), pages: [pageIri(page)] }
    const answers = await Promise.all([1, 2].map(() => server.post(GROUPS, body, { token: editor })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    expect(await ownerGroups('pages', page)).toEqual([idOf(group)])
  })

  it("any other taken reference keeps today's refusal: a location or a stored location naming another owner, an owner the caller may not edit; nothing is linked", async () => {
    const [page, another] = [await newPage(), await newPage()]
    // The POST's location names another page than its owner.
    const group = await ownerlessGroup(pageIri(page))
    const elsewhere = await server.post(
      GROUPS,
      { reference: `primary_${pageIri(page)}`, location: pageIri(another), pages: [pageIri(page)] },
      { token: editor },
    )
    expect([elsewhere.status, elsewhere.body.violations?.[0]?.propertyPath]).toEqual([422, 'reference'])
    // The group was made for another page than the one the POST names (taking it would move another page's blocks).
    const taken = await server.post(
      GROUPS,
      { reference: `primary_${pageIri(page)}`, location: pageIri(another), pages: [pageIri(another)] },
      { token: editor },
    )
    expect([taken.status, taken.body.violations?.[0]?.propertyPath]).toEqual([422, 'reference'])
    expect(await ownerGroups('pages', page)).toEqual([])
    expect(await ownerGroups('pages', another)).toEqual([])
    // Security (taking over another's group through an owner the caller may not edit): a draft, for an admin without the publish permission.
    const draft = await createRecord(server.payload, 'html_contents', { html: '<p>draft</p>' })
    const drafts = `${HTML}/${draft}`
    const reference = ref('draft-group')
    await ownerlessGroup(drafts, reference)
    const refused = await server.post(GROUPS, { reference, location: drafts, components: [drafts] }, { token: admin })
    expect([refused.status, refused.body.violations?.[0]?.propertyPath]).toEqual([422, 'reference'])
    expect(await ownerGroups('html_contents', draft)).toEqual([])
    expect((await server.get(group, { token: editor })).status).toBe(200)
  })

  it('security: an owner the caller may not edit (a draft, for an admin without the publish permission) is refused on every API; no group is left behind', async () => {
    const draft = await createRecord(server.payload, 'html_contents', { html: '<p>draft</p>' })
    const before = await groupCount()
    // The JSON-LD API: the draft does not exist for this caller.
    const jsonld = await server.post(
      GROUPS,
      { reference: ref('draft-owner'), components: [`${HTML}/${draft}`] },
      { token: admin },
    )
    expect(jsonld.status).toBe(422)
    expect(jsonld.body.violations[0].propertyPath).toBe('components[0]')
    // Payload REST names it as Payload names relations: the same refusal, on the same property.
    const rest = await server.request(
      'POST',
      '/api/component_groups',
      { reference: ref('draft-owner'), components: [{ relationTo: 'html_contents', value: draft }] },
      { contentType: 'application/json', headers: restHeaders(admin) },
    )
    expect(rest.status).toBe(400) // Payload's status of a validation error
    expect(rest.body.errors[0].data.errors[0].path).toBe('components[0]')
    expect(await groupCount()).toBe(before)
    expect(await ownerGroups('html_contents', draft)).toEqual([])
  })

  it('a page filled through its new group: anonymous visitors see the published block after a reload, and no orphan scan lists the group, its position or the block', async () => {
    const page = await newPage()
    await createRecord(server.payload, 'routes', { path: `/${ref('visit')}`, page })
    const before = await server.get(pageIri(page))
    expect(before.status).toBe(200)
    expect(before.body.componentGroups).toEqual([])

    const group = (
      await server.post(
        GROUPS,
        { reference: `primary_${pageIri(page)}`, location: pageIri(page), pages: [pageIri(page)] },
        { token: editor },
      )
    ).body['@id']
    const block = await server.post(
      HTML,
      {
        html: '<p>published</p>',
        publishedAt: new Date(Date.now() - 1000).toISOString(),
        componentPositions: [{ componentGroup: group, sortValue: 0 }],
      },
      { token: editor },
    )
    expect(block.status).toBe(201)

    const visitor = await server.get(pageIri(page))
    expect(visitor.body.componentGroups).toEqual([group])
    const positions = (await server.get(group)).body.componentPositions
    expect(positions).toHaveLength(1)
    expect((await server.get(positions[0])).body.component).toBe(block.body['@id'])
    expect((await server.get(block.body['@id'])).body.html).toBe('<p>published</p>')

    const scan = await server.post('/_api/_/orphaned_resources/scan', undefined, { token: editor })
    expect(scan.status).toBe(202)
    expect(scan.body.componentGroups).not.toContain(group)
    expect(scan.body.componentPositions).not.toContain(positions[0])
    expect(scan.body.components).not.toContain(block.body['@id'])
  })
})

describe('order is kept unique within a group', () => {
  /** A group with `n` positions made without a sortValue (each goes after the last: 0, 1, 2...). */
  async function groupOf(n: number): Promise<{ group: string; ids: string[] }> {
    const group = (await server.post(GROUPS, { reference: ref('order') }, { token: editor })).body['@id']
    const ids: string[] = []
    for (let i = 0; i < n; i++) {
      const title = await createRecord(server.payload, 'titles', { title: `t${i}` })
      const created = await server.post(
        POSITIONS,
        { componentGroup: group, component: `${TITLES}/${title}` },
        { token: editor },
      )
      expect(created.status).toBe(201)
      ids.push(idOf(created.body['@id']))
    }
    return { group: idOf(group), ids }
  }
  const ordered = (...entries: Array<[string, number]>) => entries.map(([id, value]) => `${id}:${value}`)

  it('positions created without a sortValue go after the last (0, 1, 2)', async () => {
    const { group, ids } = await groupOf(3)
    expect(await order(group)).toEqual(ordered([ids[0]!, 0], [ids[1]!, 1], [ids[2]!, 2]))
  })

  it('"move up" (one PATCH {sortValue: 1}) takes the place and shifts the holder down: each position announced once', async () => {
    const { group, ids } = await groupOf(3)
    const [a, b, c] = ids as [string, string, string]
    // A visitor's answer for the holder, kept by the read model: the shift must drop it.
    const stored = async () =>
      (
        await server.sql('SELECT count(*)::int AS n FROM _acb_read_model WHERE path = $1', [
          `/_/component_positions/${b}`,
        ])
      )[0].n as number
    expect((await server.get(`${POSITIONS}/${b}`)).body.sortValue).toBe(1)
    await waitFor(async () => (await stored()) === 1)
    expect((await server.get(`${POSITIONS}/${b}`)).headers.get('cwa-read-model')).toBe('hit')
    events.length = 0
    const moved = await server.patch(`${POSITIONS}/${c}`, { sortValue: 1 }, { token: editor })
    expect(moved.status).toBe(200)
    expect(moved.body.sortValue).toBe(1)
    expect(await order(group)).toEqual(ordered([a, 0], [c, 1], [b, 2]))
    expect((await server.get(`${POSITIONS}/${b}`)).body.sortValue).toBe(2)
    expect(summary(events.filter((e) => e.collection === 'component_positions'))).toEqual(
      [`update ${POSITIONS}/${b}`, `update ${POSITIONS}/${c}`].sort(),
    )
    // The group lists them in that order, for anyone.
    expect((await server.get(`${GROUPS}/${group}`)).body.componentPositions).toEqual(
      [a, c, b].map((id) => `${POSITIONS}/${id}`),
    )
  })

  it('"move down" closes the gap it leaves: those between move up by one (the bundle\'s rule)', async () => {
    const { group, ids } = await groupOf(4)
    const [a, b, c, d] = ids as [string, string, string, string]
    expect((await server.patch(`${POSITIONS}/${a}`, { sortValue: 2 }, { token: editor })).status).toBe(200)
    expect(await order(group)).toEqual(ordered([b, 0], [c, 1], [a, 2], [d, 3]))
  })

  it('a create at a taken value inserts there and shifts the holder and those after it; a free value moves nothing', async () => {
    const { group, ids } = await groupOf(3)
    const [a, b, c] = ids as [string, string, string]
    const title = await createRecord(server.payload, 'titles', { title: 'inserted' })
    const inserted = await server.post(
      POSITIONS,
      { componentGroup: `${GROUPS}/${group}`, component: `${TITLES}/${title}`, sortValue: 1 },
      { token: editor },
    )
    expect(inserted.status).toBe(201)
    const n = idOf(inserted.body['@id'])
    expect(await order(group)).toEqual(ordered([a, 0], [n, 1], [b, 2], [c, 3]))
    const far = await server.post(POSITIONS, { componentGroup: `${GROUPS}/${group}`, sortValue: 10 }, { token: editor })
    expect(far.status).toBe(201)
    expect(await order(group)).toEqual(ordered([a, 0], [n, 1], [b, 2], [c, 3], [idOf(far.body['@id']), 10]))
  })

  it("Payload's REST API follows the same rule", async () => {
    const { group, ids } = await groupOf(3)
    const [a, b, c] = ids as [string, string, string]
    const response = await server.request(
      'PATCH',
      `/api/component_positions/${c}`,
      { sortValue: 0 },
      { contentType: 'application/json', headers: restHeaders(editor) },
    )
    expect(response.status).toBe(200)
    expect(await order(group)).toEqual(ordered([c, 0], [a, 1], [b, 2]))
  })

  it('a group holding a shared value (rows from before this rule) is numbered in its order at its next write', async () => {
    const { group, ids } = await groupOf(3)
    const [a, b, c] = ids as [string, string, string]
    await server.sql('UPDATE _acb_component_positions SET sort_value = 0 WHERE component_group_id = $1', [group])
    expect((await server.patch(`${POSITIONS}/${c}`, { sortValue: 0 }, { token: editor })).status).toBe(200)
    // Numbered 0, 1, 2 in creation order, then the move: c first, each value once.
    expect(await order(group)).toEqual(ordered([c, 0], [a, 1], [b, 2]))
  })

  it('a sortValue that is not a whole number is a 422, nothing moves', async () => {
    const { group, ids } = await groupOf(2)
    const before = await order(group)
    const response = await server.patch(`${POSITIONS}/${ids[1]}`, { sortValue: 0.5 }, { token: editor })
    expect(response.status).toBe(422)
    expect(response.body.violations[0].propertyPath).toBe('sortValue')
    expect(await order(group)).toEqual(before)
  })

  it('two editors moving blocks of one group at once end in one consistent order (real concurrent PostgreSQL transactions)', async () => {
    const { group, ids } = await groupOf(6)
    const moves: Array<[string, number, string]> = [
      [ids[5]!, 0, editor],
      [ids[0]!, 4, other],
      [ids[2]!, 1, editor],
      [ids[4]!, 5, other],
      [ids[1]!, 3, editor],
      [ids[3]!, 2, other],
      [ids[5]!, 5, editor],
      [ids[0]!, 0, other],
    ]
    const answers = await Promise.all(
      moves.map(([id, sortValue, token]) => server.patch(`${POSITIONS}/${id}`, { sortValue }, { token })),
    )
    expect(answers.map((answer) => answer.status)).toEqual(moves.map(() => 200))
    const values = (await order(group)).map((entry) => Number(entry.split(':')[1]))
    // Every move ran on the order the one before it committed: still 0..5, each value once.
    expect(values).toEqual([0, 1, 2, 3, 4, 5])
    expect(new Set((await order(group)).map((entry) => entry.split(':')[0]))).toEqual(new Set(ids))
  })

  it('If-Match PATCHes and moves in one group at once never deadlock: every write takes the group lock before a row lock (real concurrent PostgreSQL transactions, many rounds)', async () => {
    const { group, ids } = await groupOf(6)
    const checked: number[] = []
    for (let round = 0; round < 8; round++) {
      // What each editor read: the version each If-Match names.
      const etags = await Promise.all(
        ids.map(async (id) => (await server.get(`${POSITIONS}/${id}`, { token: editor })).headers.get('etag')!),
      )
      const answers = await Promise.all(
        ids.map((id, i) =>
          i % 2 === 0
            ? server.patch(
                `${POSITIONS}/${id}`,
                { sortValue: (round + i) % ids.length },
                { token: editor, headers: { 'if-match': etags[i]! } },
              )
            : server.patch(`${POSITIONS}/${id}`, { sortValue: (round * 5 + i) % ids.length }, { token: other }),
        ),
      )
      const statuses = answers.map((answer) => answer.status)
      // Before the fix a round deadlocked: PostgreSQL aborted one write, answered 503 Retry-After.
      expect(statuses.filter((_, i) => i % 2 === 1)).toEqual([200, 200, 200])
      // A checked write is applied or refused because a move shifted its position first (412), never anything else.
      for (const [i, status] of statuses.entries()) if (i % 2 === 0) expect([200, 412]).toContain(status)
      checked.push(...statuses.filter((_, i) => i % 2 === 0))
      const values = (await order(group)).map((entry) => Number(entry.split(':')[1]))
      expect(values).toEqual([0, 1, 2, 3, 4, 5])
    }
    // The checked path did write (not only refuse).
    expect(checked).toContain(200)
  })
})

/**
 * Issue 25 (found while proving the read model), the route gates behind a
 * shared cache: with routableSecurity set, whether an anonymous caller may
 * read a page or a component depends on which records live routes reach,
 * which no answer's body shows. Such answers carry the reach tag
 * (`cwa:routes:reach`) and a write that can change the reach purges it. The
 * attack guarded against: the content of a page whose route went off line
 * still served to anonymous callers from Varnish (or from the read model).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { postFixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'
import { freePort, startVarnish, type TestVarnish } from '../support/varnish'

const PAST = '2020-01-01T00:00:00.000Z'
let server: TestServer
let varnish: TestVarnish
let admin: string
const previousServerUrl = process.env.SERVER_URL

async function viaCache(path: string): Promise<{ status: number; hit: boolean }> {
  const response = await fetch(`${varnish.url}${path}`, { headers: { accept: 'application/ld+json' } })
  await response.arrayBuffer()
  return { status: response.status, hit: (response.headers.get('x-varnish') ?? '').trim().split(/\s+/).length === 2 }
}

/** The cache tags the service sends Varnish (which keeps them to itself). */
async function tagsOf(path: string): Promise<string[]> {
  const response = await fetch(`${server.url}${path}`, { headers: { accept: 'application/ld+json' } })
  await response.arrayBuffer()
  return (response.headers.get('xkey') ?? '').split(' ')
}

beforeAll(async () => {
  const varnishPort = await freePort()
  process.env.SERVER_URL = `http://127.0.0.1:${varnishPort}`
  server = await startTestServer({
    options: {
      routableSecurity: 'ROLE_SUPER_ADMIN',
      httpCache: { sharedMaxAge: 600, purger: 'varnish', varnishUrl: `http://127.0.0.1:${varnishPort}` },
    },
  })
  const servicePort = Number(new URL(server.url).port)
  // No front end here: its backend points at the service too.
  varnish = await startVarnish({ port: varnishPort, servicePort, frontendPort: servicePort })
  admin = await server.tokenFor('ROLE_SUPER_ADMIN')
})
afterAll(async () => {
  if (previousServerUrl === undefined) delete process.env.SERVER_URL
  else process.env.SERVER_URL = previousServerUrl
  await varnish?.stop()
  await server?.close()
})

const layout = async () =>
  (await postFixture(server, '/_api/_/layouts', { reference: `rg-layout-${Math.random()}` }, admin))['@id'] as string

/** A page with a layout, a group, a live route at /<name> and one published component placed in the group. */
const pageOf = async (name: string) => {
  const group = await postFixture(
    server,
    '/_api/_/component_groups',
    { reference: `${name}-group`, location: 'main' },
    admin,
  )
  const page = await postFixture(
    server,
    '/_api/_/pages',
    { reference: name, title: name, layout: await layout(), componentGroups: [group['@id']] },
    admin,
  )
  const route = await postFixture(server, '/_api/_/routes', { path: `/${name}`, page: page['@id'] }, admin)
  const component = await postFixture(
    server,
    '/_api/component/html_contents',
    { html: '<p>a</p>', publishedAt: PAST },
    admin,
  )
  await postFixture(
    server,
    '/_api/_/component_positions',
    { componentGroup: group['@id'], component: component['@id'], sortValue: 0 },
    admin,
  )
  return { page: page['@id'] as string, component: component['@id'] as string, route: route['@id'] as string }
}

describe('route gates behind the shared cache and the read model', () => {
  it('stops serving a page’s content to anonymous callers once its route is off line', async () => {
    const { page, component, route } = await pageOf('rg')
    for (const path of [component, page]) {
      expect((await viaCache(path)).status).toBe(200)
      expect(await tagsOf(path)).toContain('cwa:routes:reach')
      expect((await viaCache(path)).hit).toBe(true)
    }
    // Stored in the read model too (a miss behind Varnish fills it): read straight from the service.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await fetch(`${server.url}${component}`)).headers.get('cwa-read-model')).toBe('hit')

    const off = await server.patch(
      route,
      { liveAt: new Date(Date.now() + 365 * 86_400_000).toISOString() },
      { token: admin },
    )
    expect(off.status).toBe(200)
    for (const path of [component, page]) {
      const after = await viaCache(path)
      expect({ path, status: after.status, hit: after.hit }).toEqual({ path, status: 401, hit: false })
      expect((await fetch(`${server.url}${path}`)).status).toBe(401)
    }
  })

  it('keeps the gated answers of other pages cached through a content edit (it does not change what routes reach)', async () => {
    const kept = await pageOf('rg-kept')
    const edited = await pageOf('rg-edited')
    expect((await viaCache(kept.page)).status).toBe(200)
    expect((await viaCache(kept.page)).hit).toBe(true)
    const draft = await server.patch(edited.component, { html: '<p>b</p>' }, { token: admin })
    expect((await server.patch(draft.body['@id'], { publishedAt: PAST }, { token: admin })).status).toBe(200)
    expect((await viaCache(kept.page)).hit).toBe(true)
    // A structural write does change it: a position placed on the edited page purges every gated answer.
    const another = await postFixture(
      server,
      '/_api/component/html_contents',
      { html: '<p>c</p>', publishedAt: PAST },
      admin,
    )
    const group = (await server.get(edited.page)).body.componentGroups[0]
    await postFixture(
      server,
      '/_api/_/component_positions',
      { componentGroup: group, component: another['@id'], sortValue: 1 },
      admin,
    )
    expect((await viaCache(kept.page)).hit).toBe(false)
  })
})

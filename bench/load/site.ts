/**
 * The site `npm run load` runs against: the demo site, the bench's route
 * structure (two three-depth manifest sites, 1,000 routes) and the pages
 * whose published components the writes edit, each page routed, so the
 * anonymous route, manifest, page and component reads cover exactly the
 * records that get drafts under load.
 */
import type { Payload } from 'payload'
import { setUpStructure } from '../structure'
import { builder } from '../structureFixtures'
import type { ReadKind } from './types'

/** Components per page of written components. */
const PER_PAGE = 10

export interface LoadSite {
  reads: Record<ReadKind, string[]>
  writable: Array<{ id: string; html: string }>
}

const routePath = (path: string) => `/_api/_/routes/${encodeURIComponent(path)}`
const manifestPath = (path: string) => `/_api/_/resource_manifest/${encodeURIComponent(path)}`

/** Seeds what the load reads and writes (the demo site must be seeded already); `writable` published components to edit. */
export async function setUpLoadSite(payload: Payload, writable: number): Promise<LoadSite> {
  await setUpStructure(payload)
  const b = builder(payload)
  // Own references: the structure's builder numbered its own from 1 as well.
  const layout = await b.make('layouts', { reference: 'load-layout', componentGroups: [] })
  const records: LoadSite['writable'] = []
  const loadPages: string[] = []
  for (let page = 0; records.length < writable; page++) {
    const group = await b.group(`load-group-${page}`)
    for (let i = 0; i < PER_PAGE && records.length < writable; i++) {
      const html = `<p>LOAD-LIVE-${records.length}</p>`
      const id = await b.html(html)
      await b.position(group, id, i)
      records.push({ id, html })
    }
    const id = await b.page(layout, {
      reference: `load-page-${page}`,
      title: `Load page ${page}`,
      componentGroups: [group],
    })
    await b.route(`/load/${page}`, { page: id })
    loadPages.push(id)
  }

  const routes = await payload.find({ collection: 'routes', pagination: false, depth: 0 })
  const paths = routes.docs.map((route) => String(route.path))
  // Every route but the bulk ones, and a sample of those.
  const bulk = paths.filter((path) => path.startsWith('/bench/')).slice(0, 20)
  const named = paths.filter((path) => !path.startsWith('/bench/'))
  const pages = await payload.find({
    collection: 'pages',
    where: { isTemplate: { not_equals: true } },
    pagination: false,
    depth: 0,
  })
  // Every page but the bulk ones (the routes' pages), and a sample of those.
  const pageIds = [
    ...pages.docs.filter((page) => !String(page.reference).startsWith('bench-page-')),
    ...pages.docs.filter((page) => String(page.reference).startsWith('bench-page-')).slice(0, 20),
  ].map((page) => String(page.id))
  const others = await payload.find({
    collection: 'html_contents',
    where: { publishedAt: { exists: true } },
    limit: 20,
    depth: 0,
  })
  return {
    reads: {
      route: [...named, ...bulk].map(routePath),
      manifest: named.map(manifestPath),
      page: pageIds.map((id) => `/_api/_/pages/${id}`),
      component: [...records.map((record) => record.id), ...others.docs.map((doc) => String(doc.id))].map(
        (id) => `/_api/component/html_contents/${id}`,
      ),
      // Newest first (the default order): where a leaked new draft would show.
      collection: [
        '/_api/component/html_contents?itemsPerPage=30',
        '/_api/component/html_contents?itemsPerPage=30&page=2',
      ],
    },
    writable: records,
  }
}

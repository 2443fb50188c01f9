/** Routes as a tree by path: `/blog/first` under `/blog`, under `/` (a parent missing from the routes is shown as a bare segment). */
export interface RouteRecord {
  id: string
  path: string
  page: { id: string; label: string } | null
  pageData: { slug: string; id: string; label: string } | null
  redirect: { id: string; path: string } | null
}

export interface RouteNode {
  segment: string
  path: string
  route: RouteRecord | null
  children: RouteNode[]
}

export function routeTree(routes: RouteRecord[]): RouteNode {
  const root: RouteNode = { segment: '/', path: '/', route: null, children: [] }
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const segments = route.path.split('/').filter(Boolean)
    let node = root
    let path = ''
    for (const segment of segments) {
      path += `/${segment}`
      let child = node.children.find((c) => c.segment === segment)
      if (!child) node.children.push((child = { segment, path, route: null, children: [] }))
      node = child
    }
    node.route = route
  }
  return root
}

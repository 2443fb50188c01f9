/**
 * The bench's read targets: each JSON-LD read beside the same documents
 * through Payload's REST API (where it has them) and the floor
 * (bench/floor.ts: the same rows, hand-written SQL, JSON.stringify).
 */
export interface ReadTarget {
  name: string
  /** JSON-LD path, with the headers of its caller. */
  path: string
  headers?: Record<string, string>
  /** Text the body must hold (that the right version is served). */
  expect?: string
  /** The same documents through Payload REST (depth=1: relations resolved, as the JSON-LD IRIs are). */
  rest?: string
  /** The same rows from the floor server. */
  floor?: string
  /** Compared in the report: "manifest within 2x of a route-by-path read". */
  against?: string
}

export interface TargetIds {
  page: string
  component: string
  edited: string
  manifestSmall: string
  manifestLarge: string
  bulkRoutes: number
  admin: Record<string, string>
}

const manifestPath = (path: string) => `/_api/_/resource_manifest/${encodeURIComponent(path)}`

export function readTargets(ids: TargetIds): ReadTarget[] {
  const { admin } = ids
  return [
    { name: 'entrypoint', path: '/_api/' },
    {
      name: 'page item',
      path: `/_api/_/pages/${ids.page}`,
      rest: `/api/pages/${ids.page}?depth=1`,
      floor: `/page?id=${ids.page}`,
    },
    {
      name: 'component item',
      path: `/_api/component/html_contents/${ids.component}`,
      rest: `/api/html_contents/${ids.component}?depth=1`,
      floor: `/component?id=${ids.component}`,
    },
    {
      name: '30-item collection',
      path: '/_api/component/html_contents?itemsPerPage=30',
      rest: '/api/html_contents?limit=30&depth=1',
      floor: '/components?limit=30',
    },
    {
      name: 'published component, anonymous',
      path: `/_api/component/html_contents/${ids.edited}`,
      expect: 'Bench live',
      floor: `/component?id=${ids.edited}`,
    },
    {
      name: 'component with a draft, admin (draft routing)',
      path: `/_api/component/html_contents/${ids.edited}`,
      headers: admin,
      expect: 'Bench pending edit',
    },
    {
      name: '30-item collection, admin (drafts routed)',
      path: '/_api/component/html_contents?itemsPerPage=30',
      headers: admin,
      floor: '/components?limit=30',
    },
    {
      name: 'route by path, anonymous',
      path: `/_api/_/routes/${encodeURIComponent('/blog')}`,
      expect: '"/_api/_/routes/',
      rest: `/api/routes?where[path][equals]=${encodeURIComponent('/blog')}&depth=1`,
      floor: `/route?path=${encodeURIComponent('/blog')}`,
    },
    {
      name: `routes collection (${ids.bulkRoutes} routes), anonymous`,
      path: '/_api/_/routes',
      expect: '"totalItems"',
      rest: '/api/routes?limit=30&depth=1',
      floor: '/routes?limit=30',
    },
    {
      name: `routes collection (${ids.bulkRoutes} routes), admin`,
      path: '/_api/_/routes',
      headers: admin,
      expect: '"totalItems"',
      floor: '/routes?limit=30',
    },
    ...(['anonymous', 'admin'] as const).flatMap((caller) =>
      (
        [
          ['5', ids.manifestSmall],
          ['50', ids.manifestLarge],
        ] as const
      ).map(([count, path]) => ({
        name: `manifest, 3 depths + layout, ${count} components, ${caller}`,
        path: manifestPath(path),
        headers: caller === 'admin' ? admin : undefined,
        expect: '"resource_iris"',
        floor: `/manifest?path=${encodeURIComponent(path)}`,
        against: `route by path, anonymous`,
      })),
    ),
  ]
}

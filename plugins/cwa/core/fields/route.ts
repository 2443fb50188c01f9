import type { Field } from 'payload'

/** The Route pointing at a page or page data record (inverse of Route.page / Route.pageData). */
export function routeJoinField(on: 'page' | 'pageData' = 'page'): Field {
  return {
    name: 'route',
    type: 'join',
    collection: 'routes',
    on,
    defaultLimit: 1,
    label: 'Route',
    // Shown once the record exists (a new record has no route to list).
    admin: {
      allowCreate: false,
      condition: (data) => Boolean(data?.id),
      description: 'The address of this page on the site (Generate route from title creates it).',
    },
    // One route per page: serialized as a single IRI, not a list.
    custom: { cwa: { single: true } },
  }
}

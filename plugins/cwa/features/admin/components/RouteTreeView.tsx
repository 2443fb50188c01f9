/**
 * The route tree (an admin view at /admin/cwa/routes, a server component):
 * every route by path hierarchy, each linking to its route, its page or page
 * data, and a redirect to the route it points at. Read with the editor's own
 * access (Local API, overrideAccess false).
 */
import type { AdminViewServerProps, CollectionSlug } from 'payload'
import React from 'react'
import { AdminFrame } from './AdminFrame.js'
import { relationCollection, relationId } from '../../../core/utils/relations.js'
import { type RouteNode, type RouteRecord, routeTree } from './routeTree.js'

type Doc = Record<string, unknown> & { id: string }

const label = (doc: unknown, fallback: string): string => {
  const d = (doc ?? {}) as Doc
  return String(d.title || d.reference || fallback)
}

export async function RouteTreeView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const adminRoute = req.payload.config.routes.admin
  const { docs } = req.user
    ? await req.payload.find({ collection: 'routes' as CollectionSlug, depth: 1, pagination: false, overrideAccess: false, user: req.user, req, sort: 'path' })
    : { docs: [] }
  const records: RouteRecord[] = (docs as Doc[]).map((doc) => {
    const redirect = doc.redirect as Doc | string | null
    const pageData = doc.pageData as { relationTo: string; value: Doc | string } | null
    return {
      id: String(doc.id),
      path: String(doc.path),
      page: relationId(doc.page) ? { id: relationId(doc.page)!, label: label(doc.page, 'page') } : null,
      pageData: pageData && relationId(pageData) ? { slug: relationCollection(pageData)!, id: relationId(pageData)!, label: label(pageData.value, 'page data') } : null,
      redirect: relationId(redirect) ? { id: relationId(redirect)!, path: typeof redirect === 'object' && redirect ? String(redirect.path) : relationId(redirect)! } : null,
    }
  })
  const tree = routeTree(records)
  return (
    <AdminFrame initPageResult={initPageResult} params={params} searchParams={searchParams} title="Route tree">
      <p>
        {records.length} routes. <a href={`${adminRoute}/collections/routes/create`}>New route</a>
      </p>
      <ul data-testid="route-tree" style={{ listStyle: 'none', paddingLeft: 0 }}>
        <Node node={tree} adminRoute={adminRoute} />
      </ul>
    </AdminFrame>
  )
}

function Node({ node, adminRoute }: { node: RouteNode; adminRoute: string }) {
  const route = node.route
  return (
    <li style={{ margin: '4px 0' }}>
      {route ? (
        <a href={`${adminRoute}/collections/routes/${route.id}`} data-testid="route-path">
          <code>{node.path}</code>
        </a>
      ) : (
        <code style={{ color: 'var(--theme-elevation-400)' }}>{node.path}</code>
      )}
      {route?.page && (
        <>
          {' '}
          → page <a href={`${adminRoute}/collections/pages/${route.page.id}`}>{route.page.label}</a>
        </>
      )}
      {route?.pageData && (
        <>
          {' '}
          → {route.pageData.slug} <a href={`${adminRoute}/collections/${route.pageData.slug}/${route.pageData.id}`}>{route.pageData.label}</a>
        </>
      )}
      {route?.redirect && (
        <>
          {' '}
          ↪ redirects to <a href={`${adminRoute}/collections/routes/${route.redirect.id}`}>{route.redirect.path}</a>
        </>
      )}
      {node.children.length > 0 && (
        <ul style={{ listStyle: 'none', paddingLeft: 24, borderLeft: '1px solid var(--theme-elevation-150)' }}>
          {node.children.map((child) => (
            <Node key={child.path} node={child} adminRoute={adminRoute} />
          ))}
        </ul>
      )}
    </li>
  )
}

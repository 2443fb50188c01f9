/**
 * The route tree (an admin view at /admin/cwa/routes, a server component):
 * every route by path hierarchy, each with its state (live, scheduled with
 * its date, not live, redirect) and what it shows by title and type (with
 * the page data's own publication state), linking to the route, its page or
 * page data, and a redirect to the route it points at. Read with the
 * editor's own access (Local API, overrideAccess false): one query, the
 * targets populated.
 */
import { Button, Pill } from '@payloadcms/ui'
import type { AdminViewServerProps, CollectionSlug, PayloadRequest } from 'payload'
import React from 'react'
import { getOptions, getRegistry } from '../../../core/registry.js'
import { relationCollection, relationId } from '../../../core/utils/relations.js'
import { publicationState, publishableOf } from '../../publishable/index.js'
import { AdminFrame } from '../../../core/admin/AdminFrame.js'
import { adminDate } from '../../../core/admin/dates.js'
import { TypeName } from '../../../core/admin/TypeIcon.js'
import { siteUrl } from '../../admin/index.js'
import { describeDoc, typeIcon, typeLabel } from '../../adminTitles/index.js'
import { type RouteNode, type RouteRecord, type RouteState, routeState, routeTree } from './routeTree.js'

type Doc = Record<string, unknown> & { id: string }

const STATE_PILL: Record<RouteState, { label: string; style: 'success' | 'warning' | 'light-gray' | 'light' }> = {
  live: { label: 'Live', style: 'success' },
  scheduled: { label: 'Scheduled', style: 'warning' },
  'not-live': { label: 'Not live', style: 'light-gray' },
  redirect: { label: 'Redirect', style: 'light' },
}

/** A route's page or page data as the tree names it (title, type, its publication state when its type has one). */
function target(req: PayloadRequest, slug: string, value: unknown): RouteRecord['target'] {
  const id = relationId(value)
  if (!id) return null
  const doc = value && typeof value === 'object' ? (value as Doc) : null
  const resource = getRegistry(req.payload.config).bySlug(slug)
  const names = resource ? publishableOf(resource) : null
  const row = doc ? describeDoc(req, slug, doc) : null
  return {
    slug,
    id,
    title: row?.title ?? `${typeLabel(req, slug)} ${id.slice(0, 8)}`,
    type: typeLabel(req, slug),
    icon: typeIcon(req, slug),
    publication: doc && names ? publicationState(doc, names) : null,
  }
}

export async function RouteTreeView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const adminRoute = req.payload.config.routes.admin
  const { frontEndUrl } = getOptions(req.payload.config)
  const { docs } = req.user
    ? await req.payload.find({
        collection: 'routes' as CollectionSlug,
        depth: 1,
        pagination: false,
        overrideAccess: false,
        user: req.user,
        req,
        sort: 'path',
      })
    : { docs: [] }
  const now = new Date()
  const records: RouteRecord[] = (docs as Doc[]).map((doc) => {
    const redirect = doc.redirect as Doc | string | null
    const pageData = doc.pageData as { relationTo: string; value: Doc | string } | null
    return {
      id: String(doc.id),
      path: String(doc.path),
      state: routeState(doc, now),
      liveAt: (doc.effectiveLiveAt as string | null | undefined) ?? null,
      target: relationId(doc.page)
        ? target(req, 'pages', doc.page)
        : pageData && relationId(pageData)
          ? target(req, relationCollection(pageData)!, pageData.value)
          : null,
      redirect: relationId(redirect)
        ? {
            id: relationId(redirect)!,
            path: typeof redirect === 'object' && redirect ? String(redirect.path) : relationId(redirect)!,
          }
        : null,
    }
  })
  const tree = routeTree(records)
  const date = (value: string | null) => adminDate(value, req.i18n, req.payload.config.admin?.dateFormat)
  return (
    <AdminFrame initPageResult={initPageResult} params={params} searchParams={searchParams} title="Route tree">
      <div style={{ display: 'flex', gap: 'var(--base)', alignItems: 'center', marginBottom: 'var(--base)' }}>
        <span>
          {records.length} route{records.length === 1 ? '' : 's'}, by address.
        </span>
        <Button
          el="link"
          to={`${adminRoute}/collections/routes/create`}
          buttonStyle="secondary"
          size="small"
          margin={false}
        >
          New route
        </Button>
        <Button el="link" to={`${adminRoute}/collections/routes`} buttonStyle="subtle" size="small" margin={false}>
          All routes as a list
        </Button>
      </div>
      <ul data-testid="route-tree" style={{ listStyle: 'none', paddingLeft: 0 }}>
        <Node node={tree} adminRoute={adminRoute} date={date} frontEndUrl={frontEndUrl} />
      </ul>
    </AdminFrame>
  )
}

const PUBLICATION: Record<string, string> = { draft: 'Draft', scheduled: 'Scheduled', published: 'Published' }

function Node({
  node,
  adminRoute,
  date,
  frontEndUrl,
}: {
  node: RouteNode
  adminRoute: string
  date: (value: string | null) => string
  frontEndUrl: string | null
}) {
  const route = node.route
  const pill = route ? STATE_PILL[route.state] : null
  const onSite = route && route.state === 'live' ? siteUrl(frontEndUrl, route.path) : null
  return (
    <li
      style={{ margin: 'calc(var(--base) / 3) 0' }}
      data-testid={route ? 'route-node' : 'route-gap'}
      data-state={route?.state}
    >
      <div style={{ display: 'flex', gap: 'calc(var(--base) / 2)', alignItems: 'center', flexWrap: 'wrap' }}>
        {route ? (
          <a href={`${adminRoute}/collections/routes/${route.id}`} data-testid="route-path">
            <code>{node.path}</code>
          </a>
        ) : (
          <code style={{ color: 'var(--theme-elevation-400)' }} title="No route of its own">
            {node.path}
          </code>
        )}
        {pill && route && (
          <span data-testid="route-state" title={route.liveAt ? `Goes live ${date(route.liveAt)}` : undefined}>
            <Pill size="small" pillStyle={pill.style}>
              {pill.label}
              {route.state === 'scheduled' && route.liveAt ? ` · ${date(route.liveAt)}` : ''}
            </Pill>
          </span>
        )}
        {route?.target && (
          <span data-testid="route-target">
            → <a href={`${adminRoute}/collections/${route.target.slug}/${route.target.id}`}>{route.target.title}</a>{' '}
            <span style={{ color: 'var(--theme-elevation-500)' }}>
              <TypeName icon={route.target.icon} label={route.target.type} />
              {route.target.publication ? ` · ${PUBLICATION[route.target.publication]}` : ''}
            </span>
          </span>
        )}
        {route?.redirect && (
          <span>
            ↪ redirects to <a href={`${adminRoute}/collections/routes/${route.redirect.id}`}>{route.redirect.path}</a>
          </span>
        )}
        {onSite && (
          <a
            href={onSite}
            target="_blank"
            rel="noreferrer"
            data-testid="route-on-site"
            style={{ color: 'var(--theme-elevation-500)' }}
          >
            View on site ↗
          </a>
        )}
      </div>
      {node.children.length > 0 && (
        <ul
          style={{
            listStyle: 'none',
            paddingLeft: 'calc(var(--base) * 1.5)',
            borderLeft: '1px solid var(--theme-elevation-150)',
          }}
        >
          {node.children.map((child) => (
            <Node key={child.path} node={child} adminRoute={adminRoute} date={date} frontEndUrl={frontEndUrl} />
          ))}
        </ul>
      )}
    </li>
  )
}

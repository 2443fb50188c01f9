'use client'
/**
 * "View on site" in the sidebar of pages, page data and routes (with the
 * `frontEndUrl` option): the front end at the record's route. A route
 * links its own saved path; a page or page data record the path of the
 * route pointing at it (read through Payload's REST API with the editor's
 * session). A record without a (live) route says so instead of a dead link.
 */
import { Button, useConfig, useDocumentInfo, useFormFields } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'

export const ROUTE_CHANGED_EVENT = 'cwa:route-changed'

export function ViewOnSite({ frontEndUrl }: { frontEndUrl: string | null }) {
  const { id, collectionSlug } = useDocumentInfo()
  const { config } = useConfig()
  const ownPath = useFormFields(([fields]) => (collectionSlug === 'routes' ? fields.path?.initialValue : undefined)) as
    string | undefined
  const [path, setPath] = useState<string | null | undefined>(undefined)

  useEffect(() => {
    if (frontEndUrl === null) return
    if (collectionSlug === 'routes') return setPath(typeof ownPath === 'string' ? ownPath : null)
    if (!id) return setPath(null)
    let gone = false
    const load = async () => {
      const where =
        collectionSlug === 'pages'
          ? `where[page][equals]=${id}`
          : `where[pageData.value][equals]=${id}&where[pageData.relationTo][equals]=${collectionSlug}`
      const response = await fetch(`${config.serverURL}${config.routes.api}/routes?${where}&depth=0&limit=1`, {
        credentials: 'include',
        headers: { accept: 'application/json' },
      })
      const body = response.ok ? ((await response.json()) as { docs?: Array<{ path?: string }> }) : null
      if (!gone) setPath(body?.docs?.[0]?.path ?? null)
    }
    void load()
    const reload = () => void load()
    window.addEventListener(ROUTE_CHANGED_EVENT, reload)
    return () => {
      gone = true
      window.removeEventListener(ROUTE_CHANGED_EVENT, reload)
    }
  }, [frontEndUrl, id, collectionSlug, ownPath, config.serverURL, config.routes.api])

  if (frontEndUrl === null || path === undefined) return null
  return (
    <div className="cwa-view-on-site" data-testid="view-on-site" style={{ marginBottom: 'var(--base)' }}>
      {path ? (
        <Button el="anchor" url={`${frontEndUrl}${path}`} newTab buttonStyle="secondary" size="small" margin={false}>
          View on site ↗
        </Button>
      ) : (
        <span style={{ color: 'var(--theme-elevation-500)' }}>Not on the site yet: it has no route.</span>
      )}
    </div>
  )
}

'use client'
/**
 * The add form's choice of a page to link to (a type with a relation to routes, a NavigationLink's `route`): the
 * site's routes by path, redirects left out, read once from Payload's REST API with the admin's session. The value
 * is the route's IRI, as POST /_/page_builder/blocks takes it.
 */
import { useConfig } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'

interface RouteDoc {
  id: string
  path: string
}

export function RoutePicker(props: {
  apiPrefix: string
  label: string
  inputId: string
  value: string
  onChange: (iri: string) => void
}) {
  const { config } = useConfig()
  const [routes, setRoutes] = useState<RouteDoc[] | null>(null)
  useEffect(() => {
    const query = 'pagination=false&depth=0&sort=path&where[redirect][exists]=false'
    void fetch(`${config.serverURL}${config.routes.api}/routes?${query}`, {
      credentials: 'include',
      headers: { accept: 'application/json' },
    })
      .then((response) => (response.ok ? response.json() : { docs: [] }))
      .then((body: { docs?: RouteDoc[] }) => setRoutes(body.docs ?? []))
      .catch(() => setRoutes([]))
  }, [config.serverURL, config.routes.api])
  return (
    <div className="field-type">
      <label className="field-label" htmlFor={props.inputId}>
        {props.label}
      </label>
      <select
        id={props.inputId}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        style={{ width: '100%', padding: '6px 8px' }}
      >
        <option value="">{routes === null ? 'Loading the pages…' : 'No page (a raw path in All fields…)'}</option>
        {(routes ?? []).map((route) => (
          <option key={route.id} value={`${props.apiPrefix}/_/routes/${route.id}`}>
            {route.path}
          </option>
        ))}
      </select>
    </div>
  )
}

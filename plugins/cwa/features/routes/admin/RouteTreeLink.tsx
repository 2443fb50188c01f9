'use client'
/** Above the routes list (Site structure › Routes): the same routes as a tree, with titles and states. */
import { Button, useConfig } from '@payloadcms/ui'
import React from 'react'

export function RouteTreeLink() {
  const admin = useConfig().config.routes.admin
  return (
    <div data-testid="route-tree-link" style={{ marginBottom: 'var(--base)' }}>
      <Button el="link" to={`${admin}/cwa/routes`} buttonStyle="secondary" size="small" margin={false}>
        Show as a tree, with what each route shows
      </Button>
    </div>
  )
}

/**
 * The orphaned-resource report in the admin (a view at /admin/cwa/orphaned;
 * the orphan alert e-mail's button lands here): the server part renders the
 * admin's frame, OrphansPanel does the rest with the JSON-LD endpoints.
 */
import type { AdminViewServerProps } from 'payload'
import React from 'react'
import { AdminFrame } from './AdminFrame.js'
import { getOptions } from '../../../core/registry.js'
import { OrphansPanel } from './OrphansPanel.js'

export function OrphansView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  return (
    <AdminFrame initPageResult={initPageResult} params={params} searchParams={searchParams} title="Orphaned resources">
      <OrphansPanel apiPrefix={getOptions(req.payload.config).apiPrefix} adminRoute={req.payload.config.routes.admin} />
    </AdminFrame>
  )
}

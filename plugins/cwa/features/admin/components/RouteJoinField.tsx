'use client'
/**
 * A page's (or page data record's) Route table, read again after each save of the record: the page builder's
 * "Publish page" and "Schedule page" give the route its go-live through the API, not through this form, and report
 * it as a save of the page (PageBuilderField). Payload's join table reads its rows once, when it mounts: it showed
 * the route's old "Live At" until a reload. Mounted anew on each reported save of this record, it reads them again.
 */
import { JoinField, useDocumentEvents, useDocumentInfo } from '@payloadcms/ui'
import type { JoinFieldClientProps } from 'payload'
import React from 'react'

export function RouteJoinField(props: JoinFieldClientProps) {
  const { id, collectionSlug } = useDocumentInfo()
  const { mostRecentUpdate } = useDocumentEvents()
  const ofThisRecord =
    mostRecentUpdate !== null &&
    mostRecentUpdate.entitySlug === collectionSlug &&
    String(mostRecentUpdate.id) === String(id)
  return <JoinField key={ofThisRecord ? mostRecentUpdate.updatedAt : 'as loaded'} {...props} />
}

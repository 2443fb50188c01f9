'use client'
import type { DefaultCellComponentProps } from 'payload'
import React from 'react'
import { useAdminDate } from '../../../core/admin/useAdminDate.js'
import { PublicationBadge } from './PublicationBadge.js'
import { publicationOf } from './publication.js'

/** The list view's cell of publishedAt: the state badge, then the date (Payload's format). */
export function PublicationCell({ rowData, cellData }: DefaultCellComponentProps) {
  const info = publicationOf(rowData as Record<string, unknown>)
  const date = useAdminDate()(cellData as string | null)
  return (
    <span style={{ alignItems: 'center', display: 'inline-flex', gap: 8 }}>
      <PublicationBadge state={info.state} />
      {date ? <span style={{ opacity: 0.7 }}>{date}</span> : null}
    </span>
  )
}

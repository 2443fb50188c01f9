'use client'
import type { DefaultCellComponentProps } from 'payload'
import React from 'react'
import { PublicationBadge } from './PublicationBadge.js'
import { publicationOf } from './publication.js'

/** The list view's cell of publishedAt: the state badge, then the date. */
export function PublicationCell({ rowData, cellData }: DefaultCellComponentProps) {
  const info = publicationOf(rowData as Record<string, unknown>)
  const date = cellData ? new Date(cellData as string).toLocaleString() : ''
  return (
    <span style={{ alignItems: 'center', display: 'inline-flex', gap: 8 }}>
      <PublicationBadge state={info.state} title={date || undefined} />
      {date ? <span style={{ opacity: 0.7 }}>{date}</span> : null}
    </span>
  )
}

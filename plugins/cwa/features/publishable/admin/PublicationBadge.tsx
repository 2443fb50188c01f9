'use client'
import React from 'react'
import { type AdminPublication, PUBLICATION_LABELS } from './publication.js'

const COLOURS: Record<AdminPublication, { background: string; color: string }> = {
  draft: { background: '#ececec', color: '#333' },
  scheduled: { background: '#fff1c2', color: '#5c4700' },
  live: { background: '#d6f5dd', color: '#0b5a1e' },
  'live-with-draft': { background: '#d9e8ff', color: '#123f7a' },
}

/** A small pill naming the publication state; `title` carries the date. */
export function PublicationBadge({ state, title }: { state: AdminPublication; title?: string }) {
  return (
    <span
      className={`cwa-publication-badge cwa-publication-badge--${state}`}
      data-publication={state}
      title={title}
      style={{
        ...COLOURS[state],
        borderRadius: 999,
        display: 'inline-block',
        fontSize: 12,
        fontWeight: 600,
        lineHeight: '18px',
        padding: '0 8px',
        whiteSpace: 'nowrap',
      }}
    >
      {PUBLICATION_LABELS[state]}
    </span>
  )
}

'use client'
import React from 'react'
import { StatePill } from '../../../core/admin/StatePill.js'
import type { AdminPublication } from './publication.js'

/** The state's name and colour as everywhere in the admin (core/admin/StatePill.tsx). */
const SHOWN = { draft: 'draft', scheduled: 'scheduled', live: 'live', 'live-with-draft': 'live-draft' } as const

/** A small pill naming the publication state; `at`: the date it waits for. */
export function PublicationBadge({ state, at }: { state: AdminPublication; at?: string | null }) {
  return (
    <span className={`cwa-publication-badge cwa-publication-badge--${state}`} data-publication={state}>
      <StatePill state={SHOWN[state]} at={state === 'scheduled' ? at : null} />
    </span>
  )
}

'use client'
/**
 * A publication state, named once and coloured as Payload colours states (its Pill: green for live, amber for
 * something pending, grey for a draft): the list badge, the edit view's panel and the page builder all show it.
 */
import { Pill } from '@payloadcms/ui'
import React from 'react'
import { useAdminDate } from './useAdminDate.js'

/**
 * The states an editor reads: a record never published, one waiting for its date, a live one, a live one with
 * changes waiting (not published yet, or scheduled), and a block whose type has no drafts (its edits go live at once).
 */
export type PublicationStateName = 'draft' | 'scheduled' | 'live' | 'live-draft' | 'live-scheduled' | 'no-drafts'

const PILLS = {
  draft: ['Draft', 'light-gray'],
  scheduled: ['Scheduled', 'warning'],
  live: ['Live', 'success'],
  'live-draft': ['Live · changes not published', 'warning'],
  'live-scheduled': ['Live · changes scheduled', 'warning'],
  'no-drafts': ['No drafts', 'light'],
} as const

const TITLES: Partial<Record<PublicationStateName, string>> = {
  'no-drafts': 'This type has no drafts: its edits go live at once wherever it is public.',
}

/** The state's words as the pill shows them, with its date when it waits for one. */
export function stateName(state: PublicationStateName, at = ''): string {
  const [text] = PILLS[state]
  return at && (state === 'scheduled' || state === 'live-scheduled') ? `${text} ${at}` : text
}

export function StatePill({
  state,
  at,
  className,
  testId,
}: {
  state: PublicationStateName
  /** The date it waits for (scheduled states). */
  at?: string | null
  className?: string
  testId?: string
}) {
  const format = useAdminDate()
  const date = at ? format(at) : ''
  return (
    <span className={className} data-testid={testId} data-state={state} title={TITLES[state] ?? (date || undefined)}>
      <Pill size="small" pillStyle={PILLS[state][1]}>
        {stateName(state, date)}
      </Pill>
    </span>
  )
}

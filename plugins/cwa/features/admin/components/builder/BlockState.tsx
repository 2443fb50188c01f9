'use client'
import React from 'react'
import { StatePill } from '../../../../core/admin/StatePill.js'
import type { BlockState } from './types.js'

/**
 * A block's publication state as everywhere in the admin (core/admin/StatePill.tsx); a block whose type has no
 * drafts says so instead of "Live", since its edits go live at once.
 */
export function BlockStatePill({
  state,
  scheduledAt,
  drafts = true,
}: {
  state: BlockState
  scheduledAt?: string | null
  drafts?: boolean
}) {
  return <StatePill testId="block-state" state={drafts ? state : 'no-drafts'} at={scheduledAt} />
}

'use client'
import { Pill } from '@payloadcms/ui'
import React from 'react'
import { type BlockState, formatDate } from './types.js'

/** A block's publication state in words, as a Payload pill (the colours the publication badge uses: green live, amber pending, grey draft). */
export function BlockStatePill({ state, scheduledAt }: { state: BlockState; scheduledAt?: string | null }) {
  const at = scheduledAt ? formatDate(scheduledAt) : ''
  const [text, style] = (
    {
      draft: ['Draft', 'light-gray'],
      scheduled: [`Scheduled ${at}`, 'warning'],
      live: ['Live', 'success'],
      'live-draft': ['Live · changes not published', 'warning'],
      'live-scheduled': [`Live · changes scheduled ${at}`, 'warning'],
    } as const
  )[state]
  return (
    <span data-testid="block-state" data-state={state}>
      <Pill size="small" pillStyle={style}>
        {text}
      </Pill>
    </span>
  )
}

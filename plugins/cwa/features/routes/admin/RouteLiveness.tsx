'use client'
import { useFormFields } from '@payloadcms/ui'
import React from 'react'

const show = (value: unknown) => (value ? new Date(value as string).toLocaleString() : null)

/**
 * Beside a route's go-live date: its effective date (the latest of its own
 * and its routed ancestors', stored by the service as effectiveLiveAt) and
 * what that means now. The saved value: it changes on save.
 */
export function RouteLiveness() {
  const own = useFormFields(([fields]) => fields.liveAt?.value)
  const effective = useFormFields(([fields]) => fields.effectiveLiveAt?.initialValue ?? fields.effectiveLiveAt?.value)
  const at = effective ? new Date(effective as string) : null
  const state = !at ? 'not live' : at > new Date() ? 'scheduled' : 'live'
  const inherited = at && (!own || new Date(own as string).getTime() !== at.getTime())
  return (
    <div className="cwa-route-liveness" data-liveness={state} style={{ marginBottom: 24 }}>
      <strong>Effective go-live: </strong>
      {at ? show(at) : 'none'} <span>({state}{inherited ? ', inherited from a parent page' : ''})</span>
    </div>
  )
}

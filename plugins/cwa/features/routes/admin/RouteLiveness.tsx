'use client'
import { useConfig, useFormFields, useTranslation } from '@payloadcms/ui'
import { formatDate } from '@payloadcms/ui/shared'
import React from 'react'

/**
 * Beside a route's go-live date: its effective date (the latest of its own
 * and its routed ancestors', stored by the service as effectiveLiveAt) and
 * what that means now. The saved value: it changes on save. Dates in the
 * admin's date format and language, as Payload's own fields show them.
 */
export function RouteLiveness() {
  const own = useFormFields(([fields]) => fields.liveAt?.value)
  const effective = useFormFields(([fields]) => fields.effectiveLiveAt?.initialValue ?? fields.effectiveLiveAt?.value)
  const { i18n } = useTranslation()
  const { config } = useConfig()
  const at = effective ? new Date(effective as string) : null
  const state = !at ? 'not live' : at > new Date() ? 'scheduled' : 'live'
  const inherited = at && (!own || new Date(own as string).getTime() !== at.getTime())
  return (
    <div className="cwa-route-liveness field-type" data-liveness={state} style={{ marginBottom: 'var(--base)' }}>
      <span className="field-label">Effective go-live</span>
      <div>
        {at ? formatDate({ date: at, i18n, pattern: config.admin.dateFormat }) : 'none'}{' '}
        <span style={{ color: 'var(--theme-elevation-500)' }}>
          ({state}
          {inherited ? ', inherited from a parent page' : ''})
        </span>
      </div>
    </div>
  )
}

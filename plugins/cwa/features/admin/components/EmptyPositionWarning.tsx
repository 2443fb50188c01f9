'use client'
import { Banner, useFormFields } from '@payloadcms/ui'
import React from 'react'

/** Whether a polymorphic relationship value names a record ({ relationTo, value } or an id). */
const holdsRecord = (value: unknown): boolean =>
  typeof value === 'string'
    ? value !== ''
    : !!value && typeof value === 'object' && !!(value as { value?: unknown }).value

/**
 * On a component position's edit view: a position with neither a component
 * nor a page data property is legal to save (an editor may be half-way),
 * but the contract counts it as orphaned: the orphan scan lists it and a
 * cleanup deletes it. Say so while the form is in that state, so an empty
 * picker (a search that found nothing) is not saved unnoticed.
 */
export function EmptyPositionWarning() {
  const component = useFormFields(([fields]) => fields.component?.value)
  const property = useFormFields(([fields]) => fields.pageDataProperty?.value)
  if (holdsRecord(component) || (typeof property === 'string' && property.trim() !== '')) return null
  return (
    <div role="alert" data-cwa-empty-position="" style={{ marginBottom: 'var(--base)' }}>
      <Banner type="info">
        <strong>This position is empty.</strong> It holds no block and is bound to no page data property, so it is an
        orphan: the orphan scan lists it and cleaning up deletes it. Choose a block, or bind the position to a page data
        property (page data type and property).
      </Banner>
    </div>
  )
}

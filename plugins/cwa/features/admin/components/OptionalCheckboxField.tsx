'use client'
/**
 * A checkbox the schema requires only so that it is never empty (it defaults to false): shown without Payload's
 * required asterisk, which would tell an editor to tick it (the page's "Template for page data").
 */
import { CheckboxField } from '@payloadcms/ui'
import type { CheckboxFieldClientProps } from 'payload'
import React from 'react'

export function OptionalCheckboxField(props: CheckboxFieldClientProps) {
  return <CheckboxField {...props} field={{ ...props.field, required: false }} />
}

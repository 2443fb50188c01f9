'use client'
/**
 * A new page's Reference, derived from its title as the editor types it ("About our team" gives about-our-team), so
 * creating a page asks for a title, not an invented name. The editor may still write another; once they do, or
 * once the page is saved, the title no longer changes it. Only the admin's form: the API still asks for a reference.
 */
import { TextField, useDocumentInfo, useField, useFormFields } from '@payloadcms/ui'
import type { TextFieldClientProps } from 'payload'
import React, { useEffect, useRef } from 'react'
import { referenceFromTitle } from './referenceFromTitle.js'

export function ReferenceFromTitleField(props: TextFieldClientProps) {
  const { id } = useDocumentInfo()
  const path = props.path ?? props.field.name
  const title = useFormFields(([fields]) => fields.title?.value)
  const { value, setValue } = useField<string>({ path })
  /** What the title last gave: a value that differs was written by the editor, and stays theirs. */
  const derived = useRef('')
  useEffect(() => {
    if (id || typeof title !== 'string') return
    if (value && value !== derived.current) return
    derived.current = referenceFromTitle(title)
    if (derived.current !== (value ?? '')) setValue(derived.current)
  }, [id, title, value, setValue])
  return <TextField {...props} />
}

'use client'
/**
 * Text typed in the page builder joins Payload's leave-page guard. Payload warns before leaving a document whose
 * form is modified (a link, the breadcrumbs, a reload); the builder's inputs are not fields of that form, so while
 * any of them holds unsaved text the builder marks the form modified, and gives the mark back once none does.
 */
import { useForm, useFormModified } from '@payloadcms/ui'
import { useCallback, useEffect, useRef, useState } from 'react'

/** The builder's side: which inputs hold unsaved text, kept in step with the form's modified flag. */
export function useUnsavedInputs(): { unsaved: (input: string, dirty: boolean) => void; count: number } {
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set())
  const { setModified } = useForm()
  const modified = useFormModified()
  /** Whether the modified flag is the builder's (set by it, not by a field of the page's form). */
  const owned = useRef(false)
  const unsaved = useCallback(
    (input: string, on: boolean) =>
      setDirty((previous) => {
        if (previous.has(input) === on) return previous
        const next = new Set(previous)
        if (on) next.add(input)
        else next.delete(input)
        return next
      }),
    [],
  )
  useEffect(() => {
    if (dirty.size > 0 && !modified) {
      // Set again after a save of the page's form, which clears it while a builder input still holds text.
      owned.current = true
      setModified(true)
    } else if (dirty.size === 0 && owned.current) {
      // A field of the page edited meanwhile sets the flag again on its next change.
      owned.current = false
      if (modified) setModified(false)
    }
  }, [dirty, modified, setModified])
  return { unsaved, count: dirty.size }
}

/** An input's side: reports its unsaved text while mounted (closing it, Cancel, discards the text on purpose). */
export function useUnsavedText(report: (input: string, dirty: boolean) => void, input: string, dirty: boolean) {
  useEffect(() => {
    report(input, dirty)
  }, [report, input, dirty])
  useEffect(() => () => report(input, false), [report, input])
}

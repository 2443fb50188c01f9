'use client'
import { toast, useConfig, useDocumentInfo, useForm, useFormModified } from '@payloadcms/ui'
import React, { useCallback, useEffect, useState } from 'react'
import { PublicationBadge } from './PublicationBadge.js'
import { type PublicationInfo, publicationOf } from './publication.js'

type Fields = { publishedAt: string; publishedResource: string; draftResource: string }

/** The first message of a Payload error answer (a ValidationError lists its fields). */
function errorMessage(body: unknown): string {
  const error = (body as { errors?: Array<{ message?: string; data?: { errors?: Array<{ path?: string; message?: string }> } }> })?.errors?.[0]
  const fields = error?.data?.errors?.map((e) => `${e.path}: ${e.message}`).join('; ')
  return fields || error?.message || 'The request was refused.'
}

/**
 * The edit view's publishing panel (a sidebar UI field of every publishable
 * type): the state badge, the way between a live record and its pending
 * draft, "Publish now" and "Schedule". Every action is a PATCH of the draft's
 * publishedAt on Payload's REST API (same origin), which the state machine
 * turns into the transition (docs/publishing.md); unsaved edits are saved
 * first (a live record's edits land in its draft).
 */
export function PublicationPanel({ fields = { publishedAt: 'publishedAt', publishedResource: 'publishedResource', draftResource: 'draftResource' } }: { fields?: Fields }) {
  const { id, collectionSlug, savedDocumentData } = useDocumentInfo()
  const { config } = useConfig()
  const { submit } = useForm()
  const modified = useFormModified()
  const [info, setInfo] = useState<PublicationInfo | null>(null)
  const [draftAt, setDraftAt] = useState<string | null>(null)
  const [when, setWhen] = useState('')
  const [busy, setBusy] = useState(false)
  const api = `${config.serverURL}${config.routes.api}/${collectionSlug}`
  const adminUrl = (docId: string) => `${config.serverURL}${config.routes.admin}/collections/${collectionSlug}/${docId}`

  const load = useCallback(async (): Promise<PublicationInfo | null> => {
    if (!id) return null
    const response = await fetch(`${api}/${id}?depth=0`, { credentials: 'include', headers: { accept: 'application/json' } })
    if (!response.ok) return null
    const next = publicationOf(await response.json(), fields)
    setInfo(next)
    if (next.draftId) {
      const draft = await fetch(`${api}/${next.draftId}?depth=0`, { credentials: 'include', headers: { accept: 'application/json' } })
      const body = draft.ok ? ((await draft.json()) as Record<string, unknown>) : null
      setDraftAt((body?.[fields.publishedAt] as string | null | undefined) ?? null)
    } else setDraftAt(null)
    return next
  }, [api, id, fields])

  // Again after every save. A live record's edit has just made (or updated) its draft, and Payload
  // answered with the draft: the editor goes on in the draft's own view (the live one is unchanged).
  useEffect(() => {
    const saved = savedDocumentData?.id
    if (id && saved && String(saved) !== String(id)) {
      toast.info('Saved as a draft: the live version is unchanged until you publish.')
      window.location.assign(adminUrl(String(saved)))
      return
    }
    void load()
  }, [load, savedDocumentData])

  const setDate = useCallback(
    async (at: Date, verb: string) => {
      setBusy(true)
      try {
        // Unsaved edits first: on a live record they become (or update) its draft.
        if (modified) await submit()
        const current = await load()
        if (!current) return
        const target = current.state === 'live-with-draft' ? current.draftId : current.state === 'live' ? null : String(id)
        if (!target) {
          toast.info('Nothing to publish: the live version has no pending draft.')
          return
        }
        const response = await fetch(`${api}/${target}?depth=0`, {
          method: 'PATCH',
          credentials: 'include',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ [fields.publishedAt]: at.toISOString() }),
        })
        const body = await response.json().catch(() => null)
        if (!response.ok) {
          toast.error(`${verb} refused: ${errorMessage(body)}`)
          return
        }
        toast.success(verb === 'Publish' ? 'Published.' : `Scheduled for ${at.toLocaleString()}.`)
        // Publishing a draft with a twin leaves the live record (the draft is gone): show what is live now.
        // A scheduled draft of a live record: back to the live record, where the pending draft shows.
        const doc = (body as { doc?: Record<string, unknown> })?.doc ?? {}
        const twin = doc[fields.publishedResource] as { id?: unknown } | string | null | undefined
        const shown = (typeof twin === 'object' && twin ? twin.id : twin) ?? doc.id ?? target
        window.location.assign(adminUrl(String(shown)))
      } finally {
        setBusy(false)
      }
    },
    [api, fields, id, load, modified, submit],
  )

  if (!id) return <p className="cwa-publication-panel">Save first: a new record is a draft until it is published.</p>
  if (!info) return null
  const hasDraft = info.state !== 'live'
  return (
    <div className="cwa-publication-panel" style={{ display: 'grid', gap: 8, marginBottom: 24 }}>
      <div style={{ alignItems: 'center', display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        <PublicationBadge state={info.state} title={info.publishedAt ?? undefined} />
        {info.publishedId ? <span>of a live record</span> : null}
        {info.state === 'scheduled' && info.publishedAt ? <span>goes live {new Date(info.publishedAt).toLocaleString()}</span> : null}
        {info.state === 'live-with-draft' && draftAt ? <span>draft scheduled {new Date(draftAt).toLocaleString()}</span> : null}
      </div>
      {info.state === 'live-with-draft' && info.draftId ? (
        <a className="cwa-edit-draft" href={adminUrl(info.draftId)}>
          Edit the pending draft →
        </a>
      ) : null}
      {info.publishedId ? (
        <a className="cwa-view-live" href={adminUrl(info.publishedId)}>
          ← The live version this draft will replace
        </a>
      ) : null}
      {info.state === 'live' ? <small>Saving changes makes a draft; the live version stays until you publish it.</small> : null}
      <button type="button" className="btn btn--style-primary btn--size-small cwa-publish-now" disabled={busy || (!hasDraft && !modified)} onClick={() => void setDate(new Date(), 'Publish')}>
        Publish now
      </button>
      {/* Centred, and the button without Payload's block margins: stretched to them, the date input grew to twice its height. */}
      <div style={{ alignItems: 'center', display: 'flex', gap: 8 }}>
        <input aria-label="Publication date" className="cwa-schedule-at" type="datetime-local" step={1} value={when} onChange={(event) => setWhen(event.target.value)} />
        <button
          type="button"
          className="btn btn--style-secondary btn--size-small cwa-schedule"
          style={{ margin: 0 }}
          disabled={busy || !when || (!hasDraft && !modified)}
          onClick={() => {
            const at = new Date(when)
            if (!(at > new Date())) toast.error('Choose a moment in the future to schedule.')
            else void setDate(at, 'Schedule')
          }}
        >
          Schedule
        </button>
      </div>
    </div>
  )
}

'use client'
import {
  DatePicker,
  toast,
  useConfig,
  useDocumentInfo,
  useEditDepth,
  useForm,
  useFormFields,
  useFormModified,
} from '@payloadcms/ui'
import React, { useCallback, useEffect, useRef, useState } from 'react'
import { sayAfterMove, useMessageAfterMove } from '../../../core/admin/messageAfterMove.js'
import { useAdminDate } from '../../../core/admin/useAdminDate.js'
import { CONFLICT_PATH, ConflictDialog } from './ConflictDialog.js'
import { PublicationBadge } from './PublicationBadge.js'
import { type PublicationInfo, publicationOf } from './publication.js'

type Fields = { publishedAt: string; publishedResource: string; draftResource: string }

/** The first message of a Payload error answer (a ValidationError lists its fields). */
function errorMessage(body: unknown): string {
  const error = (
    body as { errors?: Array<{ message?: string; data?: { errors?: Array<{ path?: string; message?: string }> } }> }
  )?.errors?.[0]
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
export function PublicationPanel({
  fields = { publishedAt: 'publishedAt', publishedResource: 'publishedResource', draftResource: 'draftResource' },
}: {
  fields?: Fields
}) {
  const { id, collectionSlug, savedDocumentData } = useDocumentInfo()
  const { config } = useConfig()
  const { submit, dispatchFields, setModified } = useForm()
  const modified = useFormModified()
  // In a drawer (the page builder's), the page around it is not this record's view: it is not navigated away.
  const inDrawer = useEditDepth() > 1
  const [info, setInfo] = useState<PublicationInfo | null>(null)
  const [draftAt, setDraftAt] = useState<string | null>(null)
  const [when, setWhen] = useState<Date | null>(null)
  const formatDate = useAdminDate()
  const [busy, setBusy] = useState(false)
  const [conflict, setConflict] = useState<string | null>(null)
  // A publication under way (from the first click on): a second click is ignored, and the save it
  // starts with must not send the editor away to the draft before the draft is published.
  const publishing = useRef(false)
  const modifiedRef = useRef(modified)
  useEffect(() => {
    modifiedRef.current = modified
  }, [modified])
  const api = `${config.serverURL}${config.routes.api}/${collectionSlug}`
  // What the view before the move had to say (a save moved here, a publication done).
  useMessageAfterMove()
  /** `live`: the live record's own view, which otherwise opens its pending draft. */
  const adminUrl = useCallback(
    (docId: string, live = false) =>
      `${config.serverURL}${config.routes.admin}/collections/${collectionSlug}/${docId}${live ? '?live=1' : ''}`,
    [config.serverURL, config.routes.admin, collectionSlug],
  )
  // A save refused because the record changed since this form loaded it (412, payloadApis.ts).
  const refused = useFormFields(([fields]) => fields[CONFLICT_PATH]?.errorMessage as string | undefined)

  const load = useCallback(async (): Promise<PublicationInfo | null> => {
    if (!id) return null
    const response = await fetch(`${api}/${id}?depth=0`, {
      credentials: 'include',
      headers: { accept: 'application/json' },
    })
    if (!response.ok) return null
    const next = publicationOf(await response.json(), fields)
    setInfo(next)
    if (next.draftId) {
      const draft = await fetch(`${api}/${next.draftId}?depth=0`, {
        credentials: 'include',
        headers: { accept: 'application/json' },
      })
      const body = draft.ok ? ((await draft.json()) as Record<string, unknown>) : null
      setDraftAt((body?.[fields.publishedAt] as string | null | undefined) ?? null)
    } else setDraftAt(null)
    return next
  }, [api, id, fields])

  // Again after every save. A live record's edit has just made (or updated) its draft, and Payload
  // answered with the draft: the editor goes on in the draft's own view (the live one is unchanged).
  // During a publication the panel goes on itself, to what is live once it is done.
  useEffect(() => {
    const saved = savedDocumentData?.id
    if (id && saved && String(saved) !== String(id)) {
      if (publishing.current) return
      const to = adminUrl(String(saved))
      sayAfterMove('Saved as a draft: the live version is unchanged until you publish. You are editing the draft.', to)
      window.location.assign(to)
      return
    }
    void load().then((next) => {
      // A live record with a pending draft opens the draft: edited here, the live version's text would be
      // saved over the draft's pending changes. `?live=1` (the draft's link back) shows the live version itself.
      const wantsLive = new URLSearchParams(window.location.search).has('live')
      if (
        next?.state === 'live-with-draft' &&
        next.draftId &&
        !wantsLive &&
        !inDrawer &&
        !modifiedRef.current &&
        !publishing.current
      ) {
        const to = adminUrl(next.draftId)
        sayAfterMove('This live record has a pending draft: you are editing the draft.', to)
        window.location.replace(to)
      }
    })
  }, [load, savedDocumentData, id, adminUrl, inDrawer])

  // The server refused a save (the record or its draft changed since this form was loaded): the dialog,
  // the editor's text kept and still unsaved, the panel's state read again.
  useEffect(() => {
    if (!refused) return
    dispatchFields({ type: 'REMOVE', path: CONFLICT_PATH })
    setModified(true)
    // The dialog opens once the panel knows where the current version is (a draft made meanwhile).
    void load().finally(() => setConflict(refused))
  }, [refused, dispatchFields, setModified, load])

  const setDate = useCallback(
    async (at: Date, verb: string) => {
      if (publishing.current) return
      publishing.current = true
      setBusy(true)
      let leaving = false
      try {
        // Unsaved edits first: on a live record they become (or update) its draft. A save that fails
        // (invalid fields, a conflict) stops here: Payload's message or the conflict dialog says why.
        if (modified) {
          const saved = (await submit()) as { res?: Response } | undefined
          if (!saved?.res?.ok) {
            toast.error(
              `${verb === 'Publish' ? 'Not published' : 'Not scheduled'}: your changes could not be saved first.`,
            )
            return
          }
        }
        const current = await load()
        if (!current) return
        const target =
          current.state === 'live-with-draft' ? current.draftId : current.state === 'live' ? null : String(id)
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
        // Publishing a draft with a twin leaves the live record (the draft is gone): show what is live now.
        // A scheduled draft of a live record: back to the live record, where the pending draft shows.
        const doc = (body as { doc?: Record<string, unknown> })?.doc ?? {}
        const twin = doc[fields.publishedResource] as { id?: unknown } | string | null | undefined
        const shown = (typeof twin === 'object' && twin ? twin.id : twin) ?? doc.id ?? target
        leaving = true
        // The live record's own view: a scheduled draft is shown there as pending, not opened. Said there.
        const to = adminUrl(String(shown), true)
        sayAfterMove(verb === 'Publish' ? 'Published.' : `Scheduled for ${formatDate(at)}.`, to)
        window.location.assign(to)
      } finally {
        // Leaving, the page stays busy (a click on the way out would start over on a stale view).
        if (!leaving) {
          publishing.current = false
          setBusy(false)
        }
      }
    },
    [api, adminUrl, fields, formatDate, id, load, modified, submit],
  )

  if (!id) return <p className="cwa-publication-panel">Save first: a new record is a draft until it is published.</p>
  const dialog = (
    <ConflictDialog
      message={conflict}
      currentUrl={info ? adminUrl(info.draftId ?? String(id), !info.draftId) : null}
      onClose={() => setConflict(null)}
    />
  )
  if (!info) return dialog
  const hasDraft = info.state !== 'live'
  return (
    <div className="cwa-publication-panel" style={{ display: 'grid', gap: 8, marginBottom: 24 }}>
      {dialog}
      <div style={{ alignItems: 'center', display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        <PublicationBadge state={info.state} at={info.publishedAt} />
        {info.publishedId ? <span>of a live record</span> : null}
        {info.state === 'live-with-draft' && draftAt ? <span>draft scheduled {formatDate(draftAt)}</span> : null}
      </div>
      {info.state === 'live-with-draft' && info.draftId ? (
        <a className="cwa-edit-draft" href={adminUrl(info.draftId)}>
          Edit the pending draft →
        </a>
      ) : null}
      {info.publishedId ? (
        <a className="cwa-view-live" href={adminUrl(info.publishedId, true)}>
          ← The live version this draft will replace
        </a>
      ) : null}
      {info.state === 'live' ? (
        <small>Saving changes makes a draft; the live version stays until you publish it.</small>
      ) : null}
      <button
        type="button"
        className="btn btn--style-primary btn--size-small cwa-publish-now"
        disabled={busy || (!hasDraft && !modified)}
        onClick={() => void setDate(new Date(), 'Publish')}
      >
        Publish now
      </button>
      {/* Payload's date picker, in the config's date format: the one date control of the edit view. */}
      <div style={{ alignItems: 'center', display: 'flex', gap: 8 }}>
        <div className="cwa-schedule-at" style={{ flex: 1 }}>
          <DatePicker
            pickerAppearance="dayAndTime"
            displayFormat={config.admin?.dateFormat}
            placeholder="Publication date"
            minDate={new Date()}
            value={when ?? undefined}
            onChange={(value) => setWhen(value ?? null)}
          />
        </div>
        <button
          type="button"
          className="btn btn--style-secondary btn--size-small cwa-schedule"
          style={{ margin: 0 }}
          disabled={busy || !when || (!hasDraft && !modified)}
          onClick={() => {
            const at = when!
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

'use client'
/**
 * A file property of an uploadable type in the admin (a `ui` field): the
 * stored original and each image variant (`_metadata.mediaObjects`), and an
 * upload (POST {item}/upload, multipart). An image over 2560 px on its
 * longest edge or over 20 megapixels is scaled down in the browser first
 * (contract Limits: browser resize). On a record not saved yet, choosing a
 * file saves the record with it, in one step: the file travels as a data URI
 * in the write-only file property of Payload's own save (uploads feature),
 * and Payload opens the new record as after any first save.
 */
import { Banner, Button, useDocumentInfo, useForm } from '@payloadcms/ui'
import React, { useCallback, useEffect, useRef, useState } from 'react'
import { apiFetch } from '../../../core/admin/api.js'
import { namedDataUri } from '../../../core/admin/dataUri.js'
import { resizeForUpload } from '../../../core/admin/resize.js'

interface MediaObject {
  contentUrl: string
  mimeType: string
  width: number | null
  height: number | null
  fileSize?: number
  imagineFilter: string | null
}

export interface FileUploadFieldProps {
  apiPrefix: string
  collectionIri: string
  property: string
}

export function FileUploadField({ collectionIri, property }: FileUploadFieldProps) {
  const { id } = useDocumentInfo()
  const [media, setMedia] = useState<MediaObject[]>([])
  const [message, setMessage] = useState<{ text: string; type: 'success' | 'error' } | null>(null)
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const iri = id ? `${collectionIri}/${id}` : null
  const { submit } = useForm()

  const load = useCallback(async () => {
    if (!iri) return
    try {
      const doc = await apiFetch<{ _metadata?: { mediaObjects?: Record<string, MediaObject[]> } }>(iri)
      setMedia(doc._metadata?.mediaObjects?.[property] ?? [])
    } catch (e) {
      setMessage({ text: (e as Error).message, type: 'error' })
    }
  }, [iri, property])
  useEffect(() => void load(), [load])

  /** A new record: Payload's save, with the file in the write-only property (Payload then opens the record). */
  const createWith = async (chosen: File) => {
    setBusy(true)
    setMessage(null)
    try {
      const { file } = await resizeForUpload(chosen)
      await submit({ overrides: { [property]: await namedDataUri(file) } })
    } catch (e) {
      setMessage({ text: (e as Error).message, type: 'error' })
    } finally {
      setBusy(false)
    }
  }

  const upload = async (chosen: File) => {
    if (!iri) return createWith(chosen)
    setBusy(true)
    try {
      const { file, resized } = await resizeForUpload(chosen)
      const form = new FormData()
      form.append(property, file, file.name)
      await apiFetch(`${iri}/upload`, { form })
      setMessage({
        text: resized
          ? `Uploaded, resized in the browser from ${resized.from.join(' × ')} to ${resized.to.join(' × ')} px.`
          : 'Uploaded.',
        type: 'success',
      })
    } catch (e) {
      setMessage({ text: (e as Error).message, type: 'error' })
    } finally {
      await load()
      setBusy(false)
    }
  }

  return (
    <div
      className="field-type"
      data-testid={`upload-${property}`}
      aria-busy={busy}
      style={{ marginBottom: 'var(--base)' }}
    >
      <span className="field-label">{label(property)}</span>
      <div
        style={{
          border: '1px solid var(--theme-elevation-150)',
          borderRadius: 'var(--style-radius-s, 4px)',
          padding: 'calc(var(--base) / 2) var(--base)',
        }}
      >
        <>
          <div style={{ display: 'flex', gap: 'var(--base)', flexWrap: 'wrap', margin: 'calc(var(--base) / 3) 0' }}>
            {media.length === 0 && (
              <span style={{ color: 'var(--theme-elevation-500)' }}>
                {iri ? 'No file yet.' : 'No file yet: choosing one saves this record with it.'}
              </span>
            )}
            {media.map((m) => (
              <figure key={m.contentUrl} style={{ margin: 0 }} data-testid="media-object">
                {m.mimeType.startsWith('image/') ? (
                  <img
                    src={m.contentUrl}
                    alt={m.imagineFilter ?? 'original'}
                    style={{
                      maxWidth: 200,
                      maxHeight: 150,
                      display: 'block',
                      borderRadius: 'var(--style-radius-s, 4px)',
                    }}
                  />
                ) : (
                  <a href={m.contentUrl}>Download</a>
                )}
                <figcaption style={{ fontSize: '0.8em', color: 'var(--theme-elevation-600)' }}>
                  {m.imagineFilter ?? 'original'} · {m.mimeType}
                  {m.width && m.height ? ` · ${m.width} × ${m.height}` : ''}
                </figcaption>
              </figure>
            ))}
          </div>
          {/* The file picker itself stays out of sight; Payload's button opens it. */}
          <input
            ref={input}
            type="file"
            aria-label={`Upload ${property}`}
            disabled={busy}
            style={{ position: 'absolute', width: 1, height: 1, opacity: 0, pointerEvents: 'none' }}
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) void upload(file)
              e.target.value = ''
            }}
          />
          <Button
            buttonStyle="secondary"
            size="small"
            margin={false}
            disabled={busy}
            onClick={() => input.current?.click()}
          >
            {media.length === 0 ? 'Choose a file…' : 'Replace the file…'}
          </Button>
          {message && (
            <div role="status" style={{ marginTop: 'calc(var(--base) / 2)' }}>
              <Banner type={message.type}>{message.text}</Banner>
            </div>
          )}
        </>
      </div>
    </div>
  )
}

/** `previewFilename` -> `Preview`, `file` -> `File`. */
function label(property: string): string {
  const words = property.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

'use client'
/**
 * A file property of an uploadable type in the admin (a `ui` field): the
 * stored original and each image variant (`_metadata.mediaObjects`), and an
 * upload (POST {item}/upload, multipart). An image over 2560 px on its
 * longest edge or over 20 megapixels is scaled down in the browser first
 * (contract Limits: browser resize).
 */
import { useDocumentInfo } from '@payloadcms/ui'
import React, { useCallback, useEffect, useState } from 'react'
import { apiFetch } from './api.js'
import { resizeForUpload } from './resize.js'

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
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const iri = id ? `${collectionIri}/${id}` : null

  const load = useCallback(async () => {
    if (!iri) return
    try {
      const doc = await apiFetch<{ _metadata?: { mediaObjects?: Record<string, MediaObject[]> } }>(iri)
      setMedia(doc._metadata?.mediaObjects?.[property] ?? [])
    } catch (e) {
      setMessage((e as Error).message)
    }
  }, [iri, property])
  useEffect(() => void load(), [load])

  const upload = async (chosen: File) => {
    if (!iri) return
    setBusy(true)
    try {
      const { file, resized } = await resizeForUpload(chosen)
      const form = new FormData()
      form.append(property, file, file.name)
      await apiFetch(`${iri}/upload`, { form })
      setMessage(resized ? `Uploaded, resized in the browser from ${resized.from.join(' × ')} to ${resized.to.join(' × ')} px.` : 'Uploaded.')
    } catch (e) {
      setMessage((e as Error).message)
    } finally {
      await load()
      setBusy(false)
    }
  }

  return (
    <div data-testid={`upload-${property}`} aria-busy={busy} style={{ marginBottom: 24, border: '1px solid var(--theme-elevation-150)', borderRadius: 4, padding: '12px 16px' }}>
      <strong>File: {property}</strong>
      {!iri ? (
        <p>Save this record first, then upload its {property}.</p>
      ) : (
        <>
          <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', margin: '8px 0' }}>
            {media.length === 0 && <span>No file yet.</span>}
            {media.map((m) => (
              <figure key={m.contentUrl} style={{ margin: 0 }} data-testid="media-object">
                {m.mimeType.startsWith('image/') ? (
                  <img src={m.contentUrl} alt={m.imagineFilter ?? 'original'} style={{ maxWidth: 200, maxHeight: 150, display: 'block' }} />
                ) : (
                  <a href={m.contentUrl}>download</a>
                )}
                <figcaption style={{ fontSize: 12 }}>
                  {m.imagineFilter ?? 'original'} · {m.mimeType}
                  {m.width && m.height ? ` · ${m.width} × ${m.height}` : ''}
                </figcaption>
              </figure>
            ))}
          </div>
          <input
            type="file"
            aria-label={`Upload ${property}`}
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) void upload(file)
              e.target.value = ''
            }}
          />
          {message && <p role="status">{message}</p>}
        </>
      )}
    </div>
  )
}

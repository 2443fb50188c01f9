'use client'
/**
 * The list view's cell of an uploadable type's file (the Images list): its
 * thumbnail variant (else the original when it is an image), read from the
 * record's JSON-LD `_metadata.mediaObjects`: where the uploads feature
 * says its files are, whatever the storage adapter. One small read per row
 * of the page shown, kept for the session. As the first column it opens the
 * record, as Payload's own first cell does (a custom cell must make its link).
 */
import { Link, useConfig } from '@payloadcms/ui'
import type { DefaultCellComponentProps } from 'payload'
import React, { useEffect, useState } from 'react'
import { apiFetch } from '../../../core/admin/api.js'

type Media = { contentUrl: string; imagineFilter: string | null; mimeType: string }

const seen = new Map<string, Promise<string | null>>()

function thumbnailOf(iri: string, property: string): Promise<string | null> {
  let found = seen.get(`${iri}#${property}`)
  if (!found) {
    found = apiFetch<{ _metadata?: { mediaObjects?: Record<string, Media[]> } }>(iri)
      .then((doc) => {
        const media = doc._metadata?.mediaObjects?.[property] ?? []
        return (
          (
            media.find((m) => m.imagineFilter === 'thumbnail') ??
            media.find((m) => m.imagineFilter === null && m.mimeType.startsWith('image/'))
          )?.contentUrl ?? null
        )
      })
      .catch(() => null)
    seen.set(`${iri}#${property}`, found)
  }
  return found
}

export interface UploadThumbnailCellProps extends DefaultCellComponentProps {
  collectionIri: string
  property: string
}

export function UploadThumbnailCell(props: UploadThumbnailCellProps) {
  const { rowData, collectionIri, property, link, linkURL, collectionSlug } = props
  const { config } = useConfig()
  const id = (rowData as { id?: unknown }).id
  const [src, setSrc] = useState<string | null>(null)
  useEffect(() => {
    if (!id) return
    let live = true
    void thumbnailOf(`${collectionIri}/${String(id)}`, property).then((url) => live && setSrc(url))
    return () => {
      live = false
    }
  }, [collectionIri, id, property])
  const frame: React.CSSProperties = {
    width: 64,
    height: 44,
    borderRadius: 3,
    background: 'var(--theme-elevation-100)',
    display: 'inline-block',
    objectFit: 'cover',
    verticalAlign: 'middle',
  }
  const thumbnail = src ? (
    <img src={src} alt="" data-testid="list-thumbnail" style={frame} />
  ) : (
    <span style={frame} aria-label="No file" />
  )
  if (!link || id === undefined || id === null) return thumbnail
  // The link's name is the record's title (the thumbnail itself is decoration: alt="").
  const titleField = config.collections.find((c) => c.slug === collectionSlug)?.admin?.useAsTitle ?? 'id'
  const title = (rowData as Record<string, unknown>)[titleField] ?? id
  const href = linkURL ?? `${config.routes.admin}/collections/${collectionSlug}/${encodeURIComponent(String(id))}`
  return (
    <Link href={href} prefetch={false} aria-label={`Open ${String(title)}`} data-testid="list-thumbnail-link">
      {thumbnail}
    </Link>
  )
}

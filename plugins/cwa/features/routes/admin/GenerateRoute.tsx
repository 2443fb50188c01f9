'use client'
import { toast, useConfig, useDocumentInfo, useForm, useFormModified } from '@payloadcms/ui'
import React, { useState } from 'react'

/** The message of a JSON-LD error answer (Hydra error or constraint violations). */
function problem(body: Record<string, any> | null): string {
  const violations = (body?.violations as Array<{ propertyPath: string; message: string }> | undefined)?.map((v) => `${v.propertyPath}: ${v.message}`)
  return violations?.join('; ') || body?.detail || body?.['hydra:description'] || body?.description || 'The request was refused.'
}

/**
 * "Generate the route from the title" on pages and page data: the contract's
 * route generation (the same as POST <apiPrefix>/_/routes/generate), through
 * the collection's REST endpoint `POST /api/<slug>/<id>/generate-route` (same
 * origin, the admin's own session), so the path follows the site's
 * RouteGenerator, the parent's route and the conflict suffixes, and an old
 * route becomes a redirect.
 */
export function GenerateRoute({ action = 'generate-route' }: { action?: string }) {
  const { id, collectionSlug } = useDocumentInfo()
  const { config } = useConfig()
  const { submit } = useForm()
  const modified = useFormModified()
  const [busy, setBusy] = useState(false)
  const [path, setPath] = useState<string | null>(null)
  if (!id) return null
  const generate = async () => {
    setBusy(true)
    try {
      if (modified) await submit() // the title as typed
      const response = await fetch(`${config.serverURL}${config.routes.api}/${collectionSlug}/${id}/${action}`, {
        method: 'POST',
        credentials: 'include',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: '{}',
      })
      const body = (await response.json().catch(() => null)) as Record<string, any> | null
      if (!response.ok) {
        toast.error(`No route generated: ${problem(body)}`)
        return
      }
      setPath(body?.path ?? null)
      toast.success(response.status === 201 ? `Route ${body?.path} created.` : `The route stays ${body?.path}.`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="cwa-generate-route" style={{ display: 'grid', gap: 8, marginBottom: 24 }}>
      <button type="button" className="btn btn--style-secondary btn--size-small cwa-generate-route-button" disabled={busy} onClick={() => void generate()}>
        Generate route from title
      </button>
      {path ? <span className="cwa-generated-path">Route: {path}</span> : null}
    </div>
  )
}

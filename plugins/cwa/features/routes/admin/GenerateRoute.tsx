'use client'
import { Button, toast, useConfig, useDocumentInfo, useForm, useFormModified } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'

/** The message of a JSON-LD error answer (Hydra error or constraint violations). */
function problem(body: Answer | null): string {
  const violations = body?.violations?.map((v) => `${v.propertyPath}: ${v.message}`)
  return (
    violations?.join('; ') ||
    body?.detail ||
    body?.['hydra:description'] ||
    body?.description ||
    'The request was refused.'
  )
}

/** What the generate-route endpoint answers: the route, or a refusal. */
interface Answer {
  path?: string
  violations?: Array<{ propertyPath: string; message: string }>
  detail?: string
  'hydra:description'?: string
  description?: string
}

/** What survives the reload after a generation (per tab): the path and whether it is new, for this record. */
const KEY = 'cwa:generated-route'

/**
 * "Generate the route from the title" on pages and page data: the contract's
 * route generation (the same as POST <apiPrefix>/_/routes/generate), through
 * the collection's REST endpoint `POST /api/<slug>/<id>/generate-route` (same
 * origin, the admin's own session), so the path follows the site's
 * RouteGenerator, the parent's route and the conflict suffixes, and an old
 * route becomes a redirect. The edit view then reloads, so its Route field
 * (a join Payload's form reads once) shows the new route; the result is kept
 * across the reload in sessionStorage and said again.
 */
export function GenerateRoute({ action = 'generate-route' }: { action?: string }) {
  const { id, collectionSlug } = useDocumentInfo()
  const { config } = useConfig()
  const { submit } = useForm()
  const modified = useFormModified()
  const [busy, setBusy] = useState(false)
  const [path, setPath] = useState<string | null>(null)

  useEffect(() => {
    if (!id) return
    try {
      const kept = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as {
        id: string
        path: string
        created: boolean
      } | null
      if (kept?.id !== String(id)) return
      sessionStorage.removeItem(KEY)
      setPath(kept.path)
      const message = kept.created
        ? `Route ${kept.path} created: the page goes public there when you publish it (“Publish page”).`
        : `The route stays ${kept.path}.`
      // After this commit's effects (see core/admin/messageAfterMove.ts: the toaster listens from its own effect).
      setTimeout(() => toast.success(message), 50)
    } catch {
      // No storage (a private window's policy): the Route field still shows the route.
    }
  }, [id])

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
      const body = (await response.json().catch(() => null)) as Answer | null
      if (!response.ok) {
        toast.error(`No route generated: ${problem(body)}`)
        return
      }
      try {
        sessionStorage.setItem(
          KEY,
          JSON.stringify({ id: String(id), path: body?.path, created: response.status === 201 }),
        )
        window.location.reload()
      } catch {
        setPath(body?.path ?? null)
        toast.success(
          response.status === 201
            ? `Route ${body?.path} created (public once you publish the page): reload to see it in the Route field.`
            : `The route stays ${body?.path}.`,
        )
      }
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="cwa-generate-route" style={{ marginBottom: 'var(--base)' }}>
      <Button
        className="cwa-generate-route-button"
        buttonStyle="secondary"
        size="small"
        margin={false}
        disabled={busy}
        onClick={() => void generate()}
      >
        Generate route from title
      </Button>
      {path ? (
        <p className="cwa-generated-path" style={{ margin: 'calc(var(--base) / 3) 0 0' }}>
          Route: <code>{path}</code>
        </p>
      ) : null}
    </div>
  )
}

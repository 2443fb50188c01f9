'use client'
import { useRouter } from 'next/navigation.js'
import { useEffect } from 'react'

export interface CwaLiveRefreshProps {
  /** The Mercure hub the API announces (a resolved page's `hub`); none: no subscription. */
  hub?: string | null
  /** The IRIs the page shows (the keys of a resolved page's `resources`). */
  resources?: string[]
  /** Refresh on Payload's Live Preview saves when shown in its frame (default true). */
  livePreview?: boolean
}

/** Whether an update names a resource the page shows: its `@id`, or any IRI it points at (a new block's group). */
function touches(data: unknown, shown: Set<string>): boolean {
  if (!data || typeof data !== 'object') return false
  const values = Object.values(data as Record<string, unknown>).flatMap((value) =>
    Array.isArray(value) ? value : [value],
  )
  return values.some((value) => {
    if (typeof value !== 'string') return false
    if (shown.has(value)) return true
    try {
      return /^https?:/.test(value) && shown.has(new URL(value).pathname)
    } catch {
      return false
    }
  })
}

/**
 * Refreshes the server-rendered page (router.refresh) when the hub announces a change to a resource it shows, and,
 * inside Payload's Live Preview, after each save in the admin panel (it tells the panel it is ready, as Payload's own
 * live preview helpers do). Renders nothing.
 */
export function CwaLiveRefresh({ hub, resources = [], livePreview = true }: CwaLiveRefreshProps) {
  const router = useRouter()
  const key = resources.join(' ')
  useEffect(() => {
    const shown = new Set(key.split(' ').filter(Boolean))
    let timer: ReturnType<typeof setTimeout> | undefined
    // Several updates of one write come together: one refresh.
    const refresh = () => {
      clearTimeout(timer)
      timer = setTimeout(() => router.refresh(), 50)
    }
    const stops: Array<() => void> = []
    if (hub && typeof EventSource !== 'undefined') {
      const url = new URL(hub, window.location.href)
      url.searchParams.append('topic', '*')
      const source = new EventSource(url, { withCredentials: true })
      source.onmessage = (event: MessageEvent<string>) => {
        try {
          if (touches(JSON.parse(event.data), shown)) refresh()
        } catch {
          // not JSON: not an update of a resource
        }
      }
      stops.push(() => source.close())
    }
    if (livePreview && window.parent !== window) {
      const onMessage = (event: MessageEvent) => {
        if (event.source === window.parent && (event.data as { type?: unknown })?.type === 'payload-document-event')
          refresh()
      }
      window.addEventListener('message', onMessage)
      // Payload's panel sends its save events once the framed page says it is ready.
      window.parent.postMessage({ type: 'payload-live-preview', ready: true }, '*')
      stops.push(() => window.removeEventListener('message', onMessage))
    }
    return () => {
      clearTimeout(timer)
      for (const stop of stops) stop()
    }
  }, [hub, key, livePreview, router])
  return null
}

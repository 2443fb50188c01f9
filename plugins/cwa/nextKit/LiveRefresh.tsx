'use client'
import { useRouter } from 'next/navigation.js'
import { useEffect } from 'react'
import { subscribe } from '../client/index.js'

export interface CwaLiveRefreshProps {
  /** The Mercure hub the API announces (a resolved page's `hub`); none: no subscription. */
  hub?: string | null
  /** The IRIs the page shows (the keys of a resolved page's `resources`). */
  resources?: string[]
  /** Refresh on Payload's Live Preview saves when shown in its frame (default true). */
  livePreview?: boolean
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
    if (hub && typeof EventSource !== 'undefined') stops.push(subscribe({ hub, iris: shown, onUpdate: refresh }))
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

'use client'
/**
 * A message that outlives a move to another URL of the admin panel. A save that moves the editor elsewhere (a live
 * record's edit saved as its draft, which has its own edit view) must say so after the move: a toast raised before
 * `location.assign` dies with the page. The message waits in the tab's sessionStorage for the page it names.
 */
import { toast } from '@payloadcms/ui'
import { useEffect } from 'react'

const KEY = 'cwa:message-after-move'

/** Keeps `message` for the page at `to` (the next one this tab opens there); without storage, says it at once. */
export function sayAfterMove(message: string, to: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ message, path: new URL(to, window.location.href).pathname }))
  } catch {
    toast.info(message)
  }
}

/** On the page a message was kept for: shows it (once). */
export function useMessageAfterMove(): void {
  useEffect(() => {
    try {
      const kept = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { message: string; path: string } | null
      if (!kept || kept.path !== window.location.pathname) return
      sessionStorage.removeItem(KEY)
      // After this commit's effects: Payload's toaster, higher in the tree, subscribes in its own effect (run after
      // this one), and drops a toast raised before it listens.
      setTimeout(() => toast.info(kept.message), 50)
    } catch {
      // No storage (a private window's policy): the message was shown before the move.
    }
  }, [])
}

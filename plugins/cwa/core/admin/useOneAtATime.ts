'use client'
import { useRef } from 'react'

/**
 * An action that runs once at a time: called again while it runs (the second click of a double click), the call
 * does nothing. For actions that wait on something before their write (a form saved first, an image resized).
 */
export function useOneAtATime<A extends unknown[]>(
  action: (...args: A) => Promise<unknown>,
): (...args: A) => Promise<void> {
  const running = useRef(false)
  return async (...args: A) => {
    if (running.current) return
    running.current = true
    try {
      await action(...args)
    } finally {
      running.current = false
    }
  }
}

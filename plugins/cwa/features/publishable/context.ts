import type { Payload, PayloadRequest } from 'payload'
import type { ResolvedPublishable } from './options.js'

export type Doc = Record<string, unknown>

/** What every transition of the publish state machine (stateMachine.ts) works with. */
export interface PublishContext {
  payload: Payload
  req: PayloadRequest
  slug: string
  shortName: string
  names: ResolvedPublishable
  /** Whether the caller satisfies publishable.permission. */
  permitted: boolean
  /** The service itself acting (a due scheduled draft promoted during someone's read): no access checks. */
  system?: boolean
  now?: Date
}

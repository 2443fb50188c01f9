import type { Payload, PayloadRequest } from 'payload'
import type { ExpectedVersion } from '../../hydra/version.js'
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
  /**
   * What the writer read (If-Match, or the admin form's updatedAt): a write is refused (412) when the
   * record, or the draft it is redirected to, is no longer that version. Null: no check (today's behaviour).
   */
  expected?: ExpectedVersion | null
}

import type { CollectionBeforeOperationHook, PayloadRequest } from 'payload'

/**
 * What a write to a user changed, noted by the before-hooks (which see the
 * request's data, including the plain password) for the after-hooks (which
 * send the emails once the record is valid and saved). Kept on the request's
 * context, per user id.
 */
export interface UserChange {
  /** A pending email change to confirm was set (verifyOnChange on). */
  emailChangeRequested?: boolean
  /** The pending email change was cancelled (its link must stop working). */
  emailChangeCancelled?: boolean
  passwordChanged?: boolean
  /** The address was changed directly and is left unverified: a verification email goes to it. */
  addressToVerify?: boolean
}

const KEY = 'cwaUserChanges'

export function noteUserChange(req: PayloadRequest, id: unknown, change: UserChange): void {
  const all = ((req.context[KEY] as Record<string, UserChange> | undefined) ??= {})
  all[String(id)] = { ...all[String(id)], ...change }
}

/** The notes about one user, removed as they are read (one write, one set of emails). */
export function takeUserChange(req: PayloadRequest, id: unknown): UserChange {
  const all = req.context[KEY] as Record<string, UserChange> | undefined
  const change = all?.[String(id)] ?? {}
  if (all) delete all[String(id)]
  return change
}

/** Set by the confirmation flow: its write of the confirmed address is not a new change request. */
export const CONFIRMING_EMAIL = 'cwaConfirmingEmail'

/** Lower-cased, trimmed address as Payload stores `email`; '' and null mean none. */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const email = value.trim().toLowerCase()
  return email === '' ? null : email
}

const SENT = 'cwaUserFieldsSent'

/**
 * Payload fills every field the write leaves out with the stored value
 * before the collection hooks run, so they cannot tell "sent unchanged"
 * from "not sent". The names the caller sent are noted before that.
 */
export const noteSentFields: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if (operation === 'create' || operation === 'update') {
    const data = (args as { data?: unknown }).data
    req.context[SENT] = data && typeof data === 'object' ? Object.keys(data) : []
  }
  return args
}

export function wasSent(req: PayloadRequest, field: string): boolean {
  return ((req.context[SENT] as string[] | undefined) ?? []).includes(field)
}

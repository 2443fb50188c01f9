import { type CollectionBeforeValidateHook, type PayloadRequest, ValidationError, type Where } from 'payload'
import type { ResolvedCwaOptions } from '../../../core/options.js'
import { email as validateEmail } from 'payload/shared'
import { isSuperAdmin } from '../../../core/roles.js'
import { CONFIRMING_EMAIL, normalizeEmail, noteUserChange, wasSent } from './changes.js'

const fail = (path: string, message: string): never => {
  throw new ValidationError({ errors: [{ path, message }] })
}

/** Whether another account already uses the address. */
async function takenByAnother(req: PayloadRequest, email: string, ownId: unknown): Promise<boolean> {
  const where: Where = ownId
    ? { and: [{ email: { equals: email } }, { id: { not_equals: ownId } }] }
    : { email: { equals: email } }
  const { totalDocs } = await req.payload.count({ collection: 'users', where, req, overrideAccess: true })
  return totalDocs > 0
}

/**
 * Email address changes (contract, "User account"):
 * - `newEmailAddress` always means a change to confirm: it stays pending
 *   and the address changes only when the emailed link is opened (the
 *   after-change hook sends it). null or '' cancels it (its link then
 *   returns 404); the same pending address again sends nothing new.
 * - `emailAddress` written directly: with `verifyOnChange`, the account
 *   holder's value becomes a pending change like the above; without it, it
 *   applies at once and the account is unverified (nobody proved the new
 *   address works). A super admin (managing accounts) and the operator's
 *   commands set it directly in any case.
 * - A new account starts unverified with `verifyOnRegister`, else with
 *   `defaultValue`, unless a super admin or the operator sets the flag.
 * - Any direct address change clears the verified flag unless the same
 *   write sets it (a super admin or the operator vouching for the address);
 *   an address left unverified is sent a verification email (writeEffects).
 *
 * Payload has filled the fields left out of the write with their stored
 * values by now: a change is a value that differs from the stored one.
 */
export function emailChangeRules(options: ResolvedCwaOptions): CollectionBeforeValidateHook {
  const { verifyOnChange, verifyOnRegister, defaultValue } = options.user.emailVerification
  const initiallyVerified = verifyOnRegister ? false : defaultValue
  const mayVouch = (req: PayloadRequest) => !req.user || isSuperAdmin(req.user, options.roleHierarchy)
  return async ({ data, operation, originalDoc, req }) => {
    if (!data) return data
    if (operation === 'create') {
      // A new account has nothing to change yet; it starts unverified when its address is to be verified.
      data.newEmailAddress = null
      if (!(wasSent(req, 'emailAddressVerified') && mayVouch(req))) data.emailAddressVerified = initiallyVerified
      return data
    }
    if (req.context[CONFIRMING_EMAIL] || !originalDoc) return data
    const current = normalizeEmail(originalDoc.email)
    const pending = normalizeEmail(originalDoc.newEmailAddress)

    let requested = normalizeEmail(data.newEmailAddress)
    const direct = normalizeEmail(data.email) ?? current
    if (verifyOnChange && !mayVouch(req) && direct !== current) {
      // The account holder's own direct change: it has to be confirmed like any other.
      if (requested === pending) requested = direct
      data.email = originalDoc.email
    }

    if (requested !== pending) {
      if (requested === null) {
        noteUserChange(req, originalDoc.id, { emailChangeCancelled: true })
      } else {
        // Checked before any email goes to it (the field's own validation runs later).
        // The context a field's validation gets; without a collectionSlug the validator reads only req and required.
        const valid = validateEmail(requested, {
          name: 'newEmailAddress',
          type: 'email',
          path: ['newEmailAddress'],
          required: true,
          req,
          data,
          siblingData: data,
          blockData: {},
          preferences: { fields: {} },
        })
        if (valid !== true) fail('newEmailAddress', String(valid))
        if (requested === current)
          fail('newEmailAddress', 'Your new email address should be different from your current one.')
        if (await takenByAnother(req, requested, originalDoc.id))
          fail('newEmailAddress', 'This email address is already used.')
        noteUserChange(req, originalDoc.id, { emailChangeRequested: true, emailChangeCancelled: Boolean(pending) })
      }
    }
    // Stored normalized ('' is no pending change: null).
    data.newEmailAddress = requested

    const changedTo = normalizeEmail(data.email)
    if (changedTo && changedTo !== current) {
      data.email = changedTo
      if (!(wasSent(req, 'emailAddressVerified') && mayVouch(req))) data.emailAddressVerified = false
      // Nobody vouched for the new address: it gets a verification email (contract, "Limits": after an email change).
      if (data.emailAddressVerified !== true) noteUserChange(req, originalDoc.id, { addressToVerify: true })
      // A pending change to the address now set directly is done.
      if (normalizeEmail(data.newEmailAddress) === changedTo) {
        data.newEmailAddress = null
        noteUserChange(req, originalDoc.id, { emailChangeCancelled: true })
      }
    }
    return data
  }
}

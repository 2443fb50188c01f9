import type { HydraContext } from '../../../src/hydra/context'
// requestEmailChange: null (or an empty new-email form) cancels a pending change; called by PATCH /users/{id} and the new_email_address form.
import { HttpError } from '../../../src/hydra/errors'
import type { OperationResult } from '../../../src/hydra/operations'

// SCAFFOLD: replaced by its owner; never left in a commit that resolves an issue.
export async function confirmEmail(_ctx: HydraContext, _username: string, _emailAddress: string, _token: string): Promise<OperationResult> {
  throw new HttpError(501, 'Not implemented yet')
}

// SCAFFOLD: replaced by its owner; never left in a commit that resolves an issue.
export async function resendVerifyNewEmail(_ctx: HydraContext, _username: string): Promise<OperationResult> {
  throw new HttpError(501, 'Not implemented yet')
}

// SCAFFOLD: replaced by its owner; never left in a commit that resolves an issue.
export async function requestEmailChange(_ctx: HydraContext, _userId: string, _newEmailAddress: string | null): Promise<void> {
  throw new HttpError(501, 'Not implemented yet')
}

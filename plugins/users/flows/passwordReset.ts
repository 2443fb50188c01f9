import type { HydraContext } from '../../../src/hydra/context'
// resetPassword: 404 (HttpError) for an unknown user or a bad, used or expired token; called by the password_reset form.
import { HttpError } from '../../../src/hydra/errors'
import type { OperationResult } from '../../../src/hydra/operations'

// SCAFFOLD: replaced by its owner; never left in a commit that resolves an issue.
export async function requestPasswordReset(_ctx: HydraContext, _username: string): Promise<OperationResult> {
  throw new HttpError(501, 'Not implemented yet')
}

// SCAFFOLD: replaced by its owner; never left in a commit that resolves an issue.
export async function resetPassword(_ctx: HydraContext, _input: { username: string; token: string; plainPassword: string }): Promise<void> {
  throw new HttpError(501, 'Not implemented yet')
}

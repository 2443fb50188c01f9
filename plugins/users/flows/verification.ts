import type { HydraContext } from '../../../src/hydra/context'
import { HttpError } from '../../../src/hydra/errors'
import type { OperationResult } from '../../../src/hydra/operations'

// SCAFFOLD: replaced by its owner; never left in a commit that resolves an issue.
export async function verifyEmail(_ctx: HydraContext, _username: string, _token: string): Promise<OperationResult> {
  throw new HttpError(501, 'Not implemented yet')
}

// SCAFFOLD: replaced by its owner; never left in a commit that resolves an issue.
export async function resendVerifyEmail(_ctx: HydraContext, _username: string): Promise<OperationResult> {
  throw new HttpError(501, 'Not implemented yet')
}

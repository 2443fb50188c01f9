import type { HydraContext } from '../../../src/hydra/context'
import { HttpError } from '../../../src/hydra/errors'
import type { OperationResult } from '../../../src/hydra/operations'

// SCAFFOLD: replaced by its owner (see the session plan); never left in a commit that resolves an issue.
export async function getRouteByPath(_ctx: HydraContext, _path: unknown): Promise<OperationResult> {
  throw new HttpError(501, 'Not implemented yet')
}

import type { HydraContext } from '../context.js'
import type { ApiRequest, Endpoint, EndpointResult } from '../endpoint.js'
import { checkInput, readOnlyInput } from '../inputCheck.js'

/**
 * Runs an endpoint's handler: with an `input`, the body is checked against
 * it first (the refusal it declares, before anything is written) and handed
 * over read-only, so a handler reads only what its schema declares.
 */
export function runHandler(ctx: HydraContext, endpoint: Endpoint, request: ApiRequest): Promise<EndpointResult> {
  if (!endpoint.input) return endpoint.handler(ctx, request)
  checkInput(endpoint.input, request.body, ctx)
  return endpoint.handler(ctx, { ...request, body: readOnlyInput(endpoint.input, request.body) })
}

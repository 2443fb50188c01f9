import type { OperationResult } from '../../../src/hydra/operations'
import { PRIVATE_NO_STORE } from '../throttle'

/**
 * The 200 answer of an email flow endpoint: a small JSON-LD Hydra Status
 * (no user data, so a concealed unknown user gets the very same body),
 * private and never cached.
 */
export function flowStatus(description: string): OperationResult {
  return {
    status: 200,
    headers: { ...PRIVATE_NO_STORE },
    body: { '@context': 'http://www.w3.org/ns/hydra/context.jsonld', '@type': 'Status', statusCode: 200, title: 'OK', description },
  }
}

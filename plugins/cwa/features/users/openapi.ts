import type { OpenApiDocument, OpenApiKit, Schema } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'

const tags = ['Email flows']

function responses(kit: OpenApiKit) {
  const status = { description: 'Done', content: { [kit.media.jsonld]: { schema: kit.ref('Users.Status') } } }
  const noStore = { 'Cache-Control': { description: 'private, no-store', schema: { type: 'string' } } }
  const sending = {
    200: { ...status, description: 'Email sent', headers: noStore },
    400: kit.errorResponse('The link was refused: no allowed Origin/Referer and no default origin; nothing changed'),
    404: kit.responseRef('NotFound'),
    429: {
      ...kit.errorResponse('Repeat wait: nothing sent or changed'),
      headers: { ...noStore, 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
    },
    503: {
      ...kit.errorResponse('The email could not be sent; nothing saved, the previous link keeps working'),
      headers: noStore,
    },
  }
  return { status, sending }
}

const operation =
  (operationId: string, summary: string, pick: (r: ReturnType<typeof responses>, kit: OpenApiKit) => Schema) =>
  // Its path parameters, in the template's order, as the endpoint declares them (endpoints.ts, paramDocs).
  (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => ({
    operation: {
      operationId,
      tags,
      summary,
      security: kit.security(true),
      parameters: Object.values(params),
      responses: pick(responses(kit), kit),
    },
  })

/** The OpenAPI description of the e-mail flow endpoints (endpoints.ts). */
export const flowDocs = {
  requestPasswordReset: operation(
    'requestPasswordReset',
    'Emails a password reset link (username or email address).',
    (r) => r.sending,
  ),
  verifyEmail: operation('verifyEmail', 'Verifies the address of a registration.', (r, kit) => ({
    200: r.status,
    404: kit.responseRef('NotFound'),
  })),
  resendVerifyEmail: operation(
    'resendVerifyEmail',
    'Emails the verification link again, for the current address.',
    (r) => r.sending,
  ),
  confirmEmail: operation('confirmEmail', 'Confirms a changed email address.', (r, kit) => ({
    200: r.status,
    404: kit.responseRef('NotFound'),
  })),
  resendVerifyNewEmail: operation(
    'resendVerifyNewEmail',
    'Emails the confirmation link of a pending address change again.',
    (r) => r.sending,
  ),
}

/** The Status schema the flows answer with, and their tag. */
export function amendUserDocs(document: OpenApiDocument, kit: OpenApiKit): void {
  document.tags.push({
    name: 'Email flows',
    description: 'Password reset, email verification and email address change',
  })
  document.components.schemas['Users.Status'] = kit.jsonLdNode('Status', {
    statusCode: { type: 'integer' },
    title: { type: 'string' },
    description: { type: 'string' },
  })
}

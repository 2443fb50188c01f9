import type { OpenApiContribution, OpenApiKit, Schema } from '../../hydra/docs/openapi'

const pathParameter = (name: string, description: string): Schema => ({ name, in: 'path', required: true, description, schema: { type: 'string' } })

/** The email flow endpoints of plugins/users/endpoints.ts, for the OpenAPI document. */
export function usersOpenApi(kit: OpenApiKit): OpenApiContribution {
  const tags = ['Email flows']
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
    503: { ...kit.errorResponse('The email could not be sent; nothing saved, the previous link keeps working'), headers: noStore },
  }
  const username = pathParameter('username', 'The username')
  const op = (operationId: string, summary: string, parameters: Schema[], responses: Schema) => ({
    get: { operationId, tags, summary, security: kit.security(true), parameters, responses },
  })
  const p = kit.prefix
  return {
    tags: [{ name: 'Email flows', description: 'Password reset, email verification and email address change' }],
    schemas: {
      'Users.Status': {
        type: 'object',
        properties: { '@context': {}, '@type': { type: 'string', const: 'Status' }, statusCode: { type: 'integer' }, title: { type: 'string' }, description: { type: 'string' } },
        required: ['@type'],
      },
    },
    paths: {
      [`${p}/password/reset/request/{username}`]: op(
        'requestPasswordReset',
        'Emails a password reset link (username or email address).',
        [pathParameter('username', 'The username or the email address')],
        sending,
      ),
      [`${p}/verify-email/{username}/{token}`]: op('verifyEmail', 'Verifies the address of a registration.', [username, pathParameter('token', 'The emailed token')], {
        200: status,
        404: kit.responseRef('NotFound'),
      }),
      [`${p}/resend-verify-email/{username}`]: op('resendVerifyEmail', 'Emails the verification link again, for the current address.', [username], sending),
      [`${p}/confirm-email/{username}/{emailAddress}/{token}`]: op(
        'confirmEmail',
        'Confirms a changed email address.',
        [username, pathParameter('emailAddress', 'The new address'), pathParameter('token', 'The emailed token')],
        { 200: status, 404: kit.responseRef('NotFound') },
      ),
      [`${p}/resend-verify-new-email/{username}`]: op('resendVerifyNewEmail', 'Emails the confirmation link of a pending address change again.', [username], sending),
    },
  }
}

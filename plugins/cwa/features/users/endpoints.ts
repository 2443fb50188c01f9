import type { Endpoint } from '../../hydra/endpoint.js'
import { confirmEmail, resendVerifyNewEmail } from './flows/newEmail.js'
import { requestPasswordReset } from './flows/passwordReset.js'
import { resendVerifyEmail, verifyEmail } from './flows/verification.js'
import { flowDocs } from './openapi.js'

/**
 * The e-mail flow endpoints of the contract (all GET). Every answer of a
 * flow is private and never stored, its 200 and its 429 and 503 included
 * (contract, "Email flows").
 */
const username = { description: 'The username' }
const token = { description: 'The emailed token' }

export function userFlowEndpoints(): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/password/reset/request/{username}',
      paramDocs: { username: { description: 'The username or the email address' } },
      cache: 'no-store',
      handler: (ctx, { params }) => requestPasswordReset(ctx, params.username!),
      docs: flowDocs.requestPasswordReset,
    },
    {
      method: 'GET',
      path: '/verify-email/{username}/{token}',
      paramDocs: { username, token },
      cache: 'no-store',
      handler: (ctx, { params }) => verifyEmail(ctx, params.username!, params.token!),
      docs: flowDocs.verifyEmail,
    },
    {
      method: 'GET',
      path: '/resend-verify-email/{username}',
      paramDocs: { username },
      cache: 'no-store',
      handler: (ctx, { params }) => resendVerifyEmail(ctx, params.username!),
      docs: flowDocs.resendVerifyEmail,
    },
    {
      method: 'GET',
      path: '/confirm-email/{username}/{emailAddress}/{token}',
      paramDocs: { username, emailAddress: { description: 'The new address' }, token },
      cache: 'no-store',
      handler: (ctx, { params }) => confirmEmail(ctx, params.username!, params.emailAddress!, params.token!),
      docs: flowDocs.confirmEmail,
    },
    {
      method: 'GET',
      path: '/resend-verify-new-email/{username}',
      paramDocs: { username },
      cache: 'no-store',
      handler: (ctx, { params }) => resendVerifyNewEmail(ctx, params.username!),
      docs: flowDocs.resendVerifyNewEmail,
    },
  ]
}

import type { Endpoint } from '../../hydra/endpoint.js'
import { confirmEmail, resendVerifyNewEmail } from './flows/newEmail.js'
import { requestPasswordReset } from './flows/passwordReset.js'
import { resendVerifyEmail, verifyEmail } from './flows/verification.js'
import { flowDocs } from './openapi.js'

/** The e-mail flow endpoints of the contract (all GET). */
export function userFlowEndpoints(): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/password/reset/request/{username}',
      handler: (ctx, { params }) => requestPasswordReset(ctx, params.username!),
      docs: flowDocs.requestPasswordReset,
    },
    {
      method: 'GET',
      path: '/verify-email/{username}/{token}',
      handler: (ctx, { params }) => verifyEmail(ctx, params.username!, params.token!),
      docs: flowDocs.verifyEmail,
    },
    {
      method: 'GET',
      path: '/resend-verify-email/{username}',
      handler: (ctx, { params }) => resendVerifyEmail(ctx, params.username!),
      docs: flowDocs.resendVerifyEmail,
    },
    {
      method: 'GET',
      path: '/confirm-email/{username}/{emailAddress}/{token}',
      handler: (ctx, { params }) => confirmEmail(ctx, params.username!, params.emailAddress!, params.token!),
      docs: flowDocs.confirmEmail,
    },
    {
      method: 'GET',
      path: '/resend-verify-new-email/{username}',
      handler: (ctx, { params }) => resendVerifyNewEmail(ctx, params.username!),
      docs: flowDocs.resendVerifyNewEmail,
    },
  ]
}

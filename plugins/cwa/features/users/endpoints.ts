import type { Router } from 'express'
import type { Payload } from 'payload'
import { handle } from '../../hydra/http'
import { confirmEmail, resendVerifyNewEmail } from './flows/newEmail'
import { requestPasswordReset } from './flows/passwordReset'
import { resendVerifyEmail, verifyEmail } from './flows/verification'

/** The email flow endpoints of the contract (all GET). */
export function mountUserFlowEndpoints(router: Router, payload: Payload): void {
  router.get('/password/reset/request/:username', handle(payload, (ctx, req) => requestPasswordReset(ctx, String(req.params.username))))
  router.get('/verify-email/:username/:token', handle(payload, (ctx, req) => verifyEmail(ctx, String(req.params.username), String(req.params.token))))
  router.get('/resend-verify-email/:username', handle(payload, (ctx, req) => resendVerifyEmail(ctx, String(req.params.username))))
  router.get(
    '/confirm-email/:username/:emailAddress/:token',
    handle(payload, (ctx, req) => confirmEmail(ctx, String(req.params.username), String(req.params.emailAddress), String(req.params.token))),
  )
  router.get('/resend-verify-new-email/:username', handle(payload, (ctx, req) => resendVerifyNewEmail(ctx, String(req.params.username))))
}

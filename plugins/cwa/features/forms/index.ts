/**
 * Server-side forms: typed form types, the formView of every Form, the
 * /submit endpoints and the built-in user forms (password_reset, register,
 * change_password, new_email_address).
 */
import type { NextFunction, Request, Response, Router } from 'express'
import type { Payload } from 'payload'
import type { HydraExtension } from '../../hydra/extension'
import { HttpError } from '../../hydra/errors'
import { handle } from '../../hydra/http'
import { getRegistry } from '../../hydra/registry'
import { formsOpenApi } from './openapi'
import { builtInForm } from './registry'
import { FORMS_SLUG, formViewOf, getBuiltInForm, submit } from './submit'

export { choice, custom, email, length, notBlank, range, regex } from './constraints'
export { persistSubmission } from './persist'
export { defineFormType } from './types'
export type * from './types'

function mountFormEndpoints(router: Router, payload: Payload): void {
  // Disabled Form component (enabledComponents.form = false): no resource, no endpoints.
  if (!getRegistry(payload.config).bySlug(FORMS_SLUG)) return
  const submitPath = '/component/forms/:id/submit'
  router.post(submitPath, handle(payload, (ctx, req) => submit(ctx, String(req.params.id), req.body, { partial: false })))
  router.patch(submitPath, handle(payload, (ctx, req) => submit(ctx, String(req.params.id), req.body, { partial: true })))
  // Data is accepted on /submit only, by POST and PATCH: no PUT (contract: Form endpoints, rule 1).
  router.all(submitPath, (_req: Request, response: Response, next: NextFunction) => {
    response.setHeader('Allow', 'POST, PATCH')
    next(new HttpError(405, 'Method Not Allowed'))
  })
  // Built-in forms answer by fixed id; a UUID is a stored Form, left to the generic item routes.
  const builtInOnly = (req: Request, _response: Response, next: NextFunction) => (builtInForm(String(req.params.id)) ? next() : next('route'))
  router.get('/component/forms/:id', builtInOnly, handle(payload, (ctx, req) => getBuiltInForm(ctx, String(req.params.id))))
}

/** formView on every Form item (reads, writes and collection members) and the form endpoints. */
export const formsExtension: HydraExtension = {
  name: 'forms',
  async normalizeItem(item, doc, resource, ctx) {
    if (resource.slug !== FORMS_SLUG) return
    item.formView = await formViewOf(ctx, String(doc.id), String(doc.formType))
  },
  mount: mountFormEndpoints,
  openApi: formsOpenApi,
}

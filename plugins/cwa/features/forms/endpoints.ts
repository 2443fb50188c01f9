import type { Endpoint } from '../../hydra/endpoint.js'
import type { ResourceRegistry } from '../../core/registry.js'
import { BUILT_IN_FORMS } from './builtIn/userForms.js'
import { formDocs, formIdParameter } from './openapi.js'
import { assertSubmitAllowed } from '../users/index.js'
import { FORMS_SLUG, getBuiltInForm, submit } from './submit.js'

/**
 * POST and PATCH {form}/submit (open to anyone: the form type decides), and
 * GET of each built-in form by its fixed id (a UUID is a stored Form, read
 * by the generic item operation). No Form resource (enabledComponents.form
 * = false): no endpoints.
 */
export function formEndpoints(registry: ResourceRegistry): Endpoint[] {
  const forms = registry.bySlug(FORMS_SLUG)
  if (!forms) return []
  const base = `${forms.meta.pathPrefix}/${forms.meta.segment}`
  // Data is accepted on /submit only, by POST and PATCH: any other method is a 405 (contract: Form endpoints, rule 1).
  return [
    {
      method: 'POST',
      path: `${base}/{id}/submit`,
      paramDocs: { id: formIdParameter },
      security: 'public',
      handler: async (ctx, { params, body }) => {
        // Anonymous full submits are throttled per client address (FORM_SUBMIT_THROTTLE, counted in PostgreSQL).
        if (!ctx.user) await assertSubmitAllowed(ctx.payload, ctx.headers)
        return submit(ctx, params.id!, body, { partial: false })
      },
      docs: formDocs.submit(forms),
    },
    {
      method: 'PATCH',
      path: `${base}/{id}/submit`,
      paramDocs: { id: formIdParameter },
      security: 'public',
      handler: (ctx, { params, body }) => submit(ctx, params.id!, body, { partial: true }),
      docs: formDocs.validate(forms),
    },
    ...Object.keys(BUILT_IN_FORMS).map((name): Endpoint => ({
      method: 'GET',
      path: `${base}/${name}`,
      cache: 'no-store',
      handler: (ctx) => getBuiltInForm(ctx, name),
      docs: formDocs.builtIn(forms, name),
    })),
  ]
}

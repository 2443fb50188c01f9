import type { SecurityExpression } from '../core/options.js'
import { passes } from '../core/roles.js'
import type { HydraContext } from './context.js'
import type { EndpointSecurity, SecurityRule } from './endpoint.js'
import { forbidden, type HttpError, unauthorized } from './errors.js'

/**
 * Who may call: an endpoint's declared `security` (enforced by the pipeline
 * before the body is read and the handler runs), and the one helper for the
 * checks that depend on what the handler read or was asked (a route's
 * rules, a preview moment, a form type's rule). Features refuse a caller
 * through these only (eslint.config.js: no 401 or 403 built in features/).
 */

/** Methods that never change anything: an anonymous caller reaches their handler unless the endpoint says otherwise. */
const SAFE = new Set(['GET', 'HEAD'])

/** is_granted: the caller holds the role (after the role hierarchy), or passes the expression's function. */
export function isGranted(ctx: Pick<HydraContext, 'user' | 'options'>, expression: SecurityExpression): boolean {
  return passes(expression, ctx.user, ctx.options.roleHierarchy)
}

/**
 * The refusal of a caller: 401 to an anonymous caller (signing in may help),
 * 403 with `message` to a signed-in one. `anonymous: 403` refuses anonymous
 * callers with the 403 as well, for a rule no ordinary sign-in satisfies
 * (registration while it is closed).
 */
export function accessDenied(
  ctx: Pick<HydraContext, 'user'>,
  message?: string,
  { anonymous = 401 }: { anonymous?: 401 | 403 } = {},
): HttpError {
  return ctx.user || anonymous === 403 ? forbidden(message) : unauthorized()
}

/**
 * Throws accessDenied unless `granted`: for a check the declaration cannot
 * make, because it depends on the record or the query (the route's rules,
 * `?at=`, a form type's rule). Role checks that depend on nothing but the
 * caller belong in the endpoint's `security`.
 */
export function denyAccessUnlessGranted(
  ctx: Pick<HydraContext, 'user'>,
  granted: boolean,
  message?: string,
  options?: { anonymous?: 401 | 403 },
): void {
  if (!granted) throw accessDenied(ctx, message, options)
}

async function ruleHolds(ctx: HydraContext, rule: SecurityRule): Promise<boolean> {
  if ('role' in rule) return isGranted(ctx, rule.role)
  return rule.granted(ctx, (expression) => isGranted(ctx, expression))
}

/** Enforces an endpoint's `security` for this request (see EndpointSecurity): throws the 401 or 403. */
export async function enforceSecurity(
  ctx: HydraContext,
  method: string,
  security: EndpointSecurity | undefined,
): Promise<void> {
  if (security === 'public') return
  // Only a public endpoint takes an anonymous write, whatever its rules would say of an anonymous caller.
  if (!ctx.user && (security === 'signed-in' || !SAFE.has(method))) throw unauthorized()
  if (security === undefined || security === 'signed-in') return
  const rules: readonly SecurityRule[] = Array.isArray(security) ? security : [security as SecurityRule]
  for (const rule of rules) if (!(await ruleHolds(ctx, rule))) throw accessDenied(ctx, rule.message)
}

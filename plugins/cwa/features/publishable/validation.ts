import { type Violation, ViolationError } from '../../hydra/errors.js'
import type { Doc, PublishContext } from './context.js'

/** The publish validation groups: required properties and the type's own checks. */
export function publishViolations(ctx: Pick<PublishContext, 'names'>, doc: Doc): Violation[] {
  const group = ctx.names.validationGroups[0] ?? 'published'
  const out: Violation[] = []
  for (const property of ctx.names.requiredOnPublish) {
    const value = doc[property]
    const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
    if (empty) out.push({ propertyPath: property, message: 'This value should not be blank.', code: group })
  }
  for (const v of ctx.names.validate?.(doc) ?? []) out.push({ ...v, code: group })
  return out
}

export function assertPublishable(ctx: PublishContext, doc: Doc): void {
  const violations = publishViolations(ctx, doc)
  if (violations.length > 0) throw new ViolationError(violations)
}

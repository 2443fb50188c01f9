import { type CollectionSlug, type Field, ValidationError } from 'payload'
import type { CoreContext } from '../context'

/**
 * parentPage / parentPageData: a child names at most one parent, of either
 * type. Shared by Page and every page data type.
 */
export function parentFields(ctx: CoreContext): Field[] {
  const fields: Field[] = [{ name: 'parentPage', type: 'relationship', relationTo: 'pages' }]
  if (ctx.pageDataSlugs.length > 0) {
    fields.push({ name: 'parentPageData', type: 'relationship', relationTo: ctx.pageDataSlugs as CollectionSlug[] })
  }
  return fields
}

/** beforeValidate check: never both parents at once. */
export function assertSingleParent(data: Record<string, unknown> | undefined, original?: Record<string, unknown>): void {
  const merged = { ...(original ?? {}), ...(data ?? {}) }
  if (merged.parentPage && merged.parentPageData) {
    throw new ValidationError({
      errors: [
        { path: 'parentPage', message: 'A child sets only one of parentPage and parentPageData.' },
        { path: 'parentPageData', message: 'A child sets only one of parentPage and parentPageData.' },
      ],
    })
  }
}

/** Hook factory placing the single-parent rule before the user's own hooks. */
export const singleParentHook =
  (): import('payload').CollectionBeforeValidateHook =>
  ({ data, originalDoc }) => {
    assertSingleParent(data as Record<string, unknown>, originalDoc as Record<string, unknown>)
    return data
  }

import { TYPE_ICONS, type TypeIconName } from '../../core/admin/typeIcons.js'
import type { CwaResourceMeta } from '../../core/types.js'

/**
 * Which of the admin's icons (core/admin/typeIcons.ts) a type shows: the
 * one it names with `adminIcon` in defineComponent or definePageData;
 * without it, a type holding files gets `image` when it makes image
 * variants, else `file`, and any other `block` (page data: `article`).
 */

const isIcon = (value: unknown): value is TypeIconName => TYPE_ICONS.includes(value as TypeIconName)

/** The icon of a collection: its declared one, else one from what it is. */
export function typeIconOf(slug: string, meta: CwaResourceMeta | undefined): TypeIconName {
  const declared = (meta as { adminIcon?: unknown } | undefined)?.adminIcon
  if (isIcon(declared)) return declared
  if (slug === 'pages') return 'page'
  if (slug === 'layouts') return 'layout'
  if (slug === 'routes') return 'route'
  if (meta?.kind === 'pageData') return 'article'
  const files = Object.values(meta?.uploadable ?? {})
  if (files.length > 0) return files.some((f) => (f.imagineFilters ?? []).length > 0) ? 'image' : 'file'
  return 'block'
}

/** Checks a declared icon when the config is built (a typo would silently show the default). */
export function assertTypeIcon(shortName: string, meta: CwaResourceMeta): void {
  const declared = (meta as { adminIcon?: unknown }).adminIcon
  if (declared !== undefined && !isIcon(declared))
    throw new Error(`${shortName}: adminIcon must be one of ${TYPE_ICONS.join(', ')}, got ${JSON.stringify(declared)}`)
}

declare module '../../core/types.js' {
  interface FeatureDeclarations {
    /** The icon beside the type's name in the admin panel (one of TYPE_ICONS). Default: from what the type is. */
    adminIcon?: TypeIconName
  }
}

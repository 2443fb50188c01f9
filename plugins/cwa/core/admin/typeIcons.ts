import type { CwaResourceMeta } from '../types.js'

/**
 * The icons the admin shows beside a type's name (page builder, start
 * panel, route tree, orphan report): a small fixed set, drawn by TypeIcon.
 * Which type gets which: typeIconOf (a type's `adminIcon`, declared by the
 * admin feature, features/admin/icons.ts, else one from what the type is).
 */
export const TYPE_ICONS = [
  'article',
  'block',
  'file',
  'form',
  'heading',
  'image',
  'layout',
  'link',
  'list',
  'page',
  'route',
  'text',
] as const

export type TypeIconName = (typeof TYPE_ICONS)[number]

export const isTypeIcon = (value: unknown): value is TypeIconName => TYPE_ICONS.includes(value as TypeIconName)

/**
 * Which of the icons a type shows: the one it names with `adminIcon` in
 * defineComponent or definePageData; without it, a type holding files gets
 * `image` when it makes image variants, else `file`, and any other `block`
 * (page data: `article`).
 */
export function typeIconOf(slug: string, meta: CwaResourceMeta | undefined): TypeIconName {
  const declared = (meta as { adminIcon?: unknown } | undefined)?.adminIcon
  if (isTypeIcon(declared)) return declared
  if (slug === 'pages') return 'page'
  if (slug === 'layouts') return 'layout'
  if (slug === 'routes') return 'route'
  if (meta?.kind === 'pageData') return 'article'
  const files = Object.values(meta?.uploadable ?? {})
  if (files.length > 0) return files.some((f) => (f.imagineFilters ?? []).length > 0) ? 'image' : 'file'
  return 'block'
}

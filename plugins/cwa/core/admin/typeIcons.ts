/**
 * The icons the admin shows beside a type's name (page builder, start
 * panel, route tree, orphan report): a small fixed set, drawn by TypeIcon.
 * Which type gets which is the admin feature's (features/admin/icons.ts:
 * `adminIcon`, else one from what the type is).
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

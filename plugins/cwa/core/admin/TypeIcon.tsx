import React from 'react'
import type { TypeIconName } from './typeIcons.js'

/**
 * The small line icon beside a type's name (16 px, the text's colour), one
 * of the admin's fixed set (typeIcons.ts). Decorative: the name beside it says
 * the same, so screen readers skip it. No hooks: it renders on the server
 * (start panel, route tree) and in the builder alike.
 */
const PATHS: Record<TypeIconName, string> = {
  article: 'M4 2.5h8v11H4zM6 5.5h4M6 8h4M6 10.5h2.5',
  block: 'M2.5 3.5h11v9h-11zM2.5 6.5h11',
  file: 'M4 1.5h5.5L12 4v10.5H4zM9.5 1.5V4H12',
  form: 'M2.5 3h11v3.5h-11zM2.5 9.5h11V13h-11zM4.5 4.75h4M4.5 11.25h4',
  heading: 'M3.5 3v10M10.5 3v10M3.5 8h7M12 13h2',
  image: 'M2 3h12v10H2zM2 11l3.5-3.5 3 3 2-2L14 12M10.5 6.25a.75.75 0 1 0 .01 0',
  layout: 'M2 2.5h12v11H2zM2 5.5h12M5.5 5.5v8',
  link: 'M6.5 9.5l3-3M7 5l1.5-1.5a2.5 2.5 0 0 1 3.5 3.5L10.5 8.5M9 11l-1.5 1.5A2.5 2.5 0 0 1 4 9l1.5-1.5',
  list: 'M5.5 4h8M5.5 8h8M5.5 12h8M2.5 4h.5M2.5 8h.5M2.5 12h.5',
  page: 'M3.5 1.5h6l3 3v10h-9zM9.5 1.5v3h3',
  route: 'M3 13V9.5a2 2 0 0 1 2-2h6a2 2 0 0 0 2-2V3M11 4.5L13 2.5l2 2',
  text: 'M2.5 4h11M2.5 7h11M2.5 10h11M2.5 13h7',
}

export function TypeIcon({ icon, size = 16 }: { icon?: TypeIconName | null; size?: number }) {
  const d = PATHS[icon ?? 'block'] ?? PATHS.block
  return (
    <svg
      data-testid="type-icon"
      data-icon={icon ?? 'block'}
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.25}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      style={{ flex: 'none', verticalAlign: '-3px' }}
    >
      <path d={d} />
    </svg>
  )
}

/** A type's icon and name together, as lists and pills show a type. */
export function TypeName({ icon, label }: { icon?: TypeIconName | null; label: string }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <TypeIcon icon={icon} />
      {label}
    </span>
  )
}

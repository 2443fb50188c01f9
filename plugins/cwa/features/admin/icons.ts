import { isTypeIcon, TYPE_ICONS, type TypeIconName } from '../../core/admin/typeIcons.js'
import type { CwaResourceMeta } from '../../core/types.js'

/**
 * The `adminIcon` declaration key and its check. Which icon a type shows
 * (typeIconOf) is in core/admin/typeIcons.ts: every feature's admin view
 * names records with it (adminTitles' records.ts).
 */

/** Checks a declared icon when the config is built (a typo would silently show the default). */
export function assertTypeIcon(shortName: string, meta: CwaResourceMeta): void {
  const declared = (meta as { adminIcon?: unknown }).adminIcon
  if (declared !== undefined && !isTypeIcon(declared))
    throw new Error(`${shortName}: adminIcon must be one of ${TYPE_ICONS.join(', ')}, got ${JSON.stringify(declared)}`)
}

declare module '../../core/types.js' {
  interface FeatureDeclarations {
    /** The icon beside the type's name in the admin panel (one of TYPE_ICONS). Default: from what the type is. */
    adminIcon?: TypeIconName
  }
}

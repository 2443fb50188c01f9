import type { ResolvedCwaOptions } from './options.js'

/** What core collections need to know about the rest of the config. */
export interface CoreContext {
  options: ResolvedCwaOptions
  /** Slugs of every component collection (targets of positions). */
  componentSlugs: string[]
  /** Slugs of every page data collection (targets of routes and parentPageData). */
  pageDataSlugs: string[]
}

/** Table name of a service-owned collection, with the configured prefix. */
export function tableName(ctx: Pick<CoreContext, 'options'>, segment: string): string {
  return `${ctx.options.tablePrefix}${segment}`
}

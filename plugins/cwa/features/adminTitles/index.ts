/**
 * A readable admin panel: every record named (a stored `adminTitle`, derived
 * on save, kept out of the JSON-LD API) and every collection labelled in
 * words. See docs/admin.md#titles-and-labels.
 */
import type { CwaFeature } from '../../hydra/feature'
import { withAdminTitles } from './config'

export type { AdminTitleFunction } from './derive'
export { humanize, withReadableLabels } from './labels'
export { TITLE_FIELD as ADMIN_TITLE_FIELD } from './positions'
export { refreshAdminTitles } from './refresh'

export const adminTitlesFeature: CwaFeature = {
  name: 'adminTitles',
  completeCollection: (collection) => withAdminTitles(collection),
}

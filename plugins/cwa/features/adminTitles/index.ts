/**
 * A readable admin panel: every record named (a stored `adminTitle`, derived
 * on save, kept out of the JSON-LD API) and every collection labelled in
 * words. See docs/admin.md#titles-and-labels.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { withAdminTitles } from './config.js'

export { fieldLabel, humanize, withReadableLabels } from './labels.js'
/** For the admin views of every feature: records named by title, type and icon. */
export { describeDoc, describeIris, type RecordRow, typeIcon, typeLabel } from './records.js'
export { TITLE_FIELD as ADMIN_TITLE_FIELD } from './positions.js'
/** A title's words from text that may be HTML (the page builder names blocks with them too). */
export { firstWords, plainText } from './derive.js'

export const adminTitlesFeature: CwaFeature = {
  name: 'adminTitles',
  // It lists a record's title where publishable's list columns listed the id.
  after: ['publishable'],
  completeCollection: (collection) => withAdminTitles(collection),
}

/**
 * The admin panel's editor views: the page builder on pages, layouts and
 * page data (with its endpoints under /_/page_builder), the route tree, the
 * orphaned-resource report with scan and delete, and uploads with their
 * variants. The React components are served to the admin through the
 * library's admin entry (`payload-cwa/admin`, plugins/cwa/admin.ts).
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { adminComponents, applyAdminFields } from './config.js'
import { adminExtension } from './extension.js'
import { byNavGroup } from './layout.js'

export { componentTitle } from './title.js'

export const adminFeature: CwaFeature = {
  name: 'admin',
  completeCollection: applyAdminFields,
  orderCollections: byNavGroup,
  adminComponents,
  extension: adminExtension,
}

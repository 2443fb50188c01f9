/**
 * The admin panel's editor views: the page builder on pages, layouts and
 * page data (with its endpoints under /_/page_builder), the route tree, the
 * orphaned-resource report with scan and delete, and uploads with their
 * variants. The React components are served to the admin through the
 * library's admin entry (`payload-cwa/admin`, plugins/cwa/admin.ts).
 */
import type { CwaFeature } from '../../hydra/feature'
import { adminComponents, applyAdminFields } from './config'
import { adminExtension } from './extension'

export { componentTitle } from './title'

export const adminFeature: CwaFeature = {
  name: 'admin',
  completeCollection: applyAdminFields,
  adminComponents,
  extension: adminExtension,
}

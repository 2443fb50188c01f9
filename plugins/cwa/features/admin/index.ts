/**
 * The admin panel for editors: the page builder on pages, layouts and page
 * data (with its endpoints under /_/page_builder), every form and list laid
 * out (navigation groups, an Advanced section, the upload fields, "View on
 * site"), the navigation links and the dashboard's start panel. Its React
 * components (components/) are served to the admin through the library's
 * admin entry (`payload-cwa/admin`, plugins/cwa/admin.ts), as are the
 * other features' (their admin/ folders: the route tree, the orphan report,
 * the upload fields, the publishing panel); those build on the admin kit
 * (core/admin/) and name records with the adminTitles feature's helpers.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { adminComponents, applyAdminFields } from './config.js'
import { adminExtension } from './extension.js'
import { byNavGroup } from './layout.js'
import { adminOptions } from './options.js'

export { componentTitle } from './title.js'
/** For the other features' admin views: the front end's URL of a path (records are named by adminTitles' describeDoc). */
export { siteUrl } from './options.js'

export const adminFeature = {
  name: 'admin',
  // It lays out the finished form: the fields those add go where an editor looks for them (technical ones in its
  // Advanced section, twin links included), and its list columns lead with adminTitles' title.
  after: ['publishable', 'uploads', 'routes', 'adminTitles'],
  options: adminOptions,
  completeCollection: applyAdminFields,
  orderCollections: byNavGroup,
  adminComponents,
  extension: adminExtension,
} satisfies CwaFeature

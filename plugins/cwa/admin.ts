/**
 * The library's admin panel components ('payload-cwa/admin'): client
 * components the collections name by path (`payload-cwa/admin#Name`), kept
 * apart from the front door (index.ts) so that the panel's browser bundle
 * never pulls in the server code. RouteTreeView and OrphansView are admin
 * views and StartPanel a dashboard panel, rendered on the server (their interactive part, OrphansPanel, is a
 * client component).
 */
export { PublicationCell } from './features/publishable/admin/PublicationCell.js'
export { PublicationPanel } from './features/publishable/admin/PublicationPanel.js'
export { GenerateRoute } from './features/routes/admin/GenerateRoute.js'
export { RouteLiveness } from './features/routes/admin/RouteLiveness.js'
export { PageBuilderField } from './features/admin/components/PageBuilderField.js'
export { EmptyPositionWarning } from './features/admin/components/EmptyPositionWarning.js'
export { FileUploadField } from './features/admin/components/FileUploadField.js'
export { UploadThumbnailCell } from './features/admin/components/UploadThumbnailCell.js'
export { CwaNavLinks } from './features/admin/components/CwaNavLinks.js'
export { RouteTreeView } from './features/admin/components/RouteTreeView.js'
export { OrphansView } from './features/admin/components/OrphansView.js'
export { StartPanel } from './features/admin/components/StartPanel.js'
export { ViewOnSite } from './features/admin/components/ViewOnSite.js'
export { RouteTreeLink } from './features/admin/components/RouteTreeLink.js'

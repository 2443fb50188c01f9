/**
 * The library's admin panel components ('payload-cwa/admin'): client
 * components the collections name by path (`payload-cwa/admin#Name`), kept
 * apart from the front door (index.ts) so that the panel's browser bundle
 * never pulls in the server code. RouteTreeView and OrphansView are admin
 * views rendered on the server (their interactive part, OrphansPanel, is a
 * client component).
 */
export { PublicationCell } from './features/publishable/admin/PublicationCell'
export { PublicationPanel } from './features/publishable/admin/PublicationPanel'
export { GenerateRoute } from './features/routes/admin/GenerateRoute'
export { RouteLiveness } from './features/routes/admin/RouteLiveness'
export { PageBuilderField } from './features/admin/components/PageBuilderField'
export { EmptyPositionWarning } from './features/admin/components/EmptyPositionWarning'
export { FileUploadField } from './features/admin/components/FileUploadField'
export { CwaNavLinks } from './features/admin/components/CwaNavLinks'
export { RouteTreeView } from './features/admin/components/RouteTreeView'
export { OrphansView } from './features/admin/components/OrphansView'

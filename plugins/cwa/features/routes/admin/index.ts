/**
 * The routes feature's admin components, as the admin's import map names
 * them (payload-cwa/admin#Name). RouteTreeView is an admin view rendered on
 * the server; RouteTreeLink leads to it from the routes list.
 */
export { GenerateRoute } from './GenerateRoute.js'
export { RouteLiveness } from './RouteLiveness.js'
export { RouteTreeLink } from './RouteTreeLink.js'
export { RouteTreeView } from './RouteTreeView.js'

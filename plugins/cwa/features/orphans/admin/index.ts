/**
 * The orphans feature's admin components, as the admin's import map names
 * them (payload-cwa/admin#Name): the report's view, rendered on the server
 * (its interactive part, OrphansPanel, is a client component).
 */
export { OrphansView } from './OrphansView.js'

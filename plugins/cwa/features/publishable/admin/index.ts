/** The publishable feature's admin components, as the admin's import map names them (payload-cwa/admin#Name). */
export { PublicationCell } from './PublicationCell.js'
export { PublicationPanel } from './PublicationPanel.js'

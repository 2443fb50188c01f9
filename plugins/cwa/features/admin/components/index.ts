/**
 * The admin feature's components, as the admin's import map names them
 * (payload-cwa/admin#Name). StartPanel is a dashboard panel rendered on the
 * server.
 */
export { AllowedBlockTypesField } from './AllowedBlockTypesField.js'
export { CwaNavLinks } from './CwaNavLinks.js'
export { EmptyPositionWarning } from './EmptyPositionWarning.js'
export { OptionalCheckboxField } from './OptionalCheckboxField.js'
export { RouteJoinField } from './RouteJoinField.js'
export { PageBuilderField } from './PageBuilderField.js'
export { QueryParametersField } from './QueryParametersField.js'
export { ReferenceFromTitleField } from './ReferenceFromTitleField.js'
export { StartPanel } from './StartPanel.js'
export { ViewOnSite } from './ViewOnSite.js'

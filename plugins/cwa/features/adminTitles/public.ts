/** The admin titles' share of the package's front door (index.ts re-exports it); derive.ts adds `adminTitle` to the declarations. */
export type { AdminTitleFunction } from './derive.js'
export { TITLE_FIELD as ADMIN_TITLE_FIELD } from './positions.js'
export { refreshAdminTitles } from './refresh.js'

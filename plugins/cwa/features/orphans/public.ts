/** The orphaned resources' share of the package's front door (index.ts re-exports it). */
export { deleteOrphans, type OrphanDeleteResult } from './deleteOrphans.js'
export { InUseError } from './hooks.js'
export { ORPHAN_SCAN_TASK } from './jobs.js'
export type { OrphanedResourcesOptions } from './options.js'
export { loadReport, type OrphanReport } from './report.js'
export { refreshReport } from './runScan.js'
export { scanOrphans } from './scan.js'
export { scanAndNotify, type ScanAndNotifyResult } from './alert.js'

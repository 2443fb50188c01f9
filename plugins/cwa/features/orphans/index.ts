/**
 * Orphaned resources: the delete cascade of groups, positions, components,
 * pages, layouts and page data on every API; the scan, the stored report,
 * the delete endpoint and GET /_/usage; the scan job; the alert of
 * `cwa:scan-orphaned`.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { applyCascade } from './config.js'
import { orphansExtension } from './extension.js'
import { orphanScanTask } from './jobs.js'
import { reportsCollection } from './report.js'

export { cascadeOf, deleteSet, type DeleteSet, type RecordRef } from './cascade.js'
export { deleteOrphans, type OrphanDeleteResult } from './deleteOrphans.js'
export { InUseError } from './hooks.js'
export { ORPHAN_SCAN_TASK, orphanScanTask } from './jobs.js'
export { parseRecipients, type OrphanedResourcesOptions, type OrphanNotifyOptions } from './options.js'
export { loadReport, type OrphanReport, storeReport } from './report.js'
export { refreshReport } from './runScan.js'
export { componentUsage } from './usage.js'
export { scanIris, scanOrphans, type OrphanScan } from './scan.js'
export { scanAndNotify, type ScanAndNotifyResult } from './alert.js'

export const orphansFeature: CwaFeature = {
  name: 'orphans',
  collections: (ctx) => [reportsCollection(ctx)],
  completeCollection: applyCascade,
  tasks: (options) => [orphanScanTask(options)],
  extension: orphansExtension,
}

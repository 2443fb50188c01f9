/**
 * Orphaned resources: the delete cascade of groups, positions, components,
 * pages, layouts and page data on every API; the scan, the stored report,
 * the delete endpoint and GET /_/usage; the scan job; the alert of
 * `cwa:scan-orphaned`.
 */
import type { CwaFeature } from '../../hydra/feature'
import { applyCascade } from './config'
import { orphansExtension } from './extension'
import { orphanScanTask } from './jobs'
import { reportsCollection } from './report'

export { cascadeOf, deleteSet, type DeleteSet, type RecordRef } from './cascade'
export { deleteOrphans, type OrphanDeleteResult } from './deleteOrphans'
export { InUseError } from './hooks'
export { ORPHAN_SCAN_TASK, orphanScanTask } from './jobs'
export { parseRecipients, type OrphanedResourcesOptions, type OrphanNotifyOptions } from './options'
export { loadReport, type OrphanReport, storeReport } from './report'
export { refreshReport } from './runScan'
export { componentUsage } from './usage'
export { scanIris, scanOrphans, type OrphanScan } from './scan'
export { scanAndNotify, type ScanAndNotifyResult } from './alert'

export const orphansFeature: CwaFeature = {
  name: 'orphans',
  collections: (ctx) => [reportsCollection(ctx)],
  completeCollection: applyCascade,
  tasks: (options) => [orphanScanTask(options)],
  extension: orphansExtension,
}

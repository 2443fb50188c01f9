/**
 * Orphaned resources: the delete cascade of groups, positions, components,
 * pages, layouts and page data on every API; the scan, the stored report,
 * the delete endpoint and GET /_/usage; the scan job; the alert of
 * `cwa:scan-orphaned`.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { applyCascade, orphansView } from './config.js'
import { orphansExtension } from './extension.js'
import { orphanScanTask } from './jobs.js'
import { orphansOptions } from './options.js'
import { reportsCollection } from './report.js'
import { commands } from './commands/index.js'

export { cascadeOf, deleteSet, type DeleteSet, type RecordRef } from './cascade.js'
export { orphanScanTask } from './jobs.js'
export { parseRecipients } from './options.js'
export { storeReport } from './report.js'
export { componentUsage } from './usage.js'
export { scanIris, scanOrphans, type OrphanScan } from './scan.js'

export const orphansFeature = {
  name: 'orphans',
  options: orphansOptions,
  collections: (ctx) => [reportsCollection(ctx)],
  completeCollection: applyCascade,
  tasks: (options) => [orphanScanTask(options)],
  adminComponents: orphansView,
  extension: orphansExtension,
  commands,
} satisfies CwaFeature

import type { TaskConfig } from 'payload'
import { electedSchedule } from '../../core/jobs/runnerElection.js'
import type { ResolvedCwaOptions } from '../../core/options.js'
import { refreshReport } from './runScan.js'

/** The Payload job task of the orphan scan (POST /_/orphaned_resources/scan with orphanedResources.scanIn 'job', and the optional schedule). */
export const ORPHAN_SCAN_TASK = 'cwaOrphanScan'
/** The queue the scan's jobs go to (the runner of `npm start` works every queue). */
export const ORPHAN_SCAN_QUEUE = 'default'

export function orphanScanTask(options: ResolvedCwaOptions): TaskConfig {
  const schedule = options.orphanedResources.schedule
  return {
    slug: ORPHAN_SCAN_TASK,
    label: 'Orphaned resources scan',
    outputSchema: [{ name: 'generatedAt', type: 'text' }],
    // A scan that fails (database gone) is tried again by the next run; it changes nothing but the report.
    retries: 2,
    // Always a list (empty without a schedule): Payload then always has its scheduling schema (payload_jobs.meta, the
    // payload_jobs_stats global), so the committed migration fits whether or not a schedule is configured.
    // Queued by the elected jobs runner only (several instances tick together).
    schedule: schedule ? [electedSchedule({ cron: schedule, queue: ORPHAN_SCAN_QUEUE })] : [],
    handler: async ({ req }) => {
      const report = await refreshReport(req.payload, req)
      return { output: { generatedAt: report.generatedAt } }
    },
  } as TaskConfig
}

import type { Payload, PayloadRequest } from 'payload'
import { type OrphanReport, storeReport } from './report.js'
import { scanIris, scanOrphans } from './scan.js'

/** Scans and stores the result as the one latest report (the scan endpoint, its job and the console command). */
export async function refreshReport(payload: Payload, req?: PayloadRequest): Promise<OrphanReport> {
  const iris = scanIris(payload, await scanOrphans(payload, req))
  return storeReport(payload, 'latest', iris, req)
}

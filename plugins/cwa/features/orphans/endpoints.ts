import { ROLE_ADMIN } from '../../core/options.js'
import { type Endpoint, type EndpointResult, withInput } from '../../hydra/endpoint.js'
import type { HydraContext } from '../../hydra/context.js'
import { notFound } from '../../hydra/errors.js'
import { deleteOrphans } from './deleteOrphans.js'
import { deleteOrphansInput } from './inputs.js'
import { ORPHAN_SCAN_TASK } from './jobs.js'
import { orphanDocs } from './openapi.js'
import { loadReport, type OrphanReport } from './report.js'
import { refreshReport } from './runScan.js'
import { componentUsage } from './usage.js'

/** Admin only (401 anonymous, 403 signed-in non-admins); its answers are private. */
const ADMIN = { security: { role: ROLE_ADMIN }, cache: 'no-store' } as const

/**
 * The report as the serializer sends it. Orphan answers are in the
 * entrypoint's context (the serializer's default), which resolves and maps
 * their terms into the API's vocabulary, as the publish and page builder
 * answers are (a context of their own would be a resource class the API
 * does not have).
 */
function reportResult(ctx: HydraContext, status: number, report: OrphanReport): EndpointResult {
  return {
    status,
    output: { type: 'OrphanedResources', id: `${ctx.options.apiPrefix}/_/orphaned_resources`, data: report },
  }
}

/**
 * The orphaned-resource endpoints (contract: Orphaned resources (admin)),
 * and GET /_/usage (this library's own: where a component is used). Cross-site
 * body-less POSTs are refused by the pipeline like any other write
 * (hydra/crossSite.ts) before these handlers run.
 */
export function orphanEndpoints(): Endpoint[] {
  return [
    {
      method: 'POST',
      path: '/_/orphaned_resources/scan',
      ...ADMIN,
      handler: async (ctx): Promise<EndpointResult> => {
        if (ctx.options.orphanedResources.scanIn === 'job') {
          const job = await ctx.payload.jobs.queue({
            task: ORPHAN_SCAN_TASK,
            input: {},
            req: ctx.req,
          })
          return {
            status: 202,
            output: { type: 'OrphanScanQueued', data: { job: String((job as { id: string | number }).id) } },
          }
        }
        return reportResult(ctx, 202, await refreshReport(ctx.payload, ctx.req))
      },
      docs: orphanDocs.scan,
    },
    {
      method: 'GET',
      path: '/_/orphaned_resources',
      ...ADMIN,
      handler: async (ctx): Promise<EndpointResult> => {
        const report = await loadReport(ctx.payload, 'latest', ctx.req)
        if (!report) throw notFound('No orphaned resources report yet: run a scan first.')
        return reportResult(ctx, 200, report)
      },
      docs: orphanDocs.report,
    },
    withInput({
      method: 'POST',
      path: '/_/orphaned_resources/delete',
      ...ADMIN,
      input: deleteOrphansInput,
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        const request = 'all' in body ? { all: true as const } : { iris: [...body.iris] }
        const result = await deleteOrphans(ctx.payload, ctx.req, request)
        return { status: 200, output: { type: 'OrphanDeleteResult', data: result } }
      },
      docs: orphanDocs.delete,
    }),
    {
      method: 'GET',
      path: '/_/usage',
      ...ADMIN,
      handler: async (ctx): Promise<EndpointResult> => ({
        status: 200,
        // A context of its own name (what the answer has always named).
        output: {
          type: 'ComponentUsage',
          context: { name: 'ComponentUsage' },
          data: await componentUsage(ctx, ctx.query.get('iri')),
        },
      }),
      docs: orphanDocs.usage,
    },
  ]
}

import { requestIsAdmin } from '../../core/access.js'
import type { Endpoint, EndpointResult } from '../../hydra/endpoint.js'
import type { HydraContext } from '../../hydra/context.js'
import { forbidden, notFound, unauthorized } from '../../hydra/errors.js'
import { deleteOrphans, parseDeleteBody } from './deleteOrphans.js'
import { ORPHAN_SCAN_TASK } from './jobs.js'
import { orphanDocs } from './openapi.js'
import { loadReport, type OrphanReport } from './report.js'
import { refreshReport } from './runScan.js'
import { componentUsage } from './usage.js'

const NO_STORE = { 'Cache-Control': 'private, no-store' }

/**
 * The @context of the orphan answers: the entrypoint's, which resolves (GET /contexts/Entrypoint) and maps
 * their terms into the API's vocabulary, as the publish and page builder answers do (a context of their
 * own would be a resource class the API does not have).
 */
const context = (ctx: HydraContext) => `${ctx.options.apiPrefix}/contexts/Entrypoint`

/** Admin only: 401 anonymous, 403 signed-in non-admins. */
function assertAdmin(ctx: HydraContext): void {
  if (!ctx.user) throw unauthorized()
  if (!requestIsAdmin(ctx.req, ctx.options)) throw forbidden()
}

function reportBody(ctx: HydraContext, report: OrphanReport): Record<string, unknown> {
  return {
    '@context': context(ctx),
    '@id': `${ctx.options.apiPrefix}/_/orphaned_resources`,
    '@type': 'OrphanedResources',
    ...report,
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
      handler: async (ctx): Promise<EndpointResult> => {
        assertAdmin(ctx)
        if (ctx.options.orphanedResources.scanIn === 'job') {
          const job = await ctx.payload.jobs.queue({
            task: ORPHAN_SCAN_TASK as never,
            input: {} as never,
            req: ctx.req,
          })
          return {
            status: 202,
            headers: NO_STORE,
            body: {
              '@context': context(ctx),
              '@type': 'OrphanScanQueued',
              job: String((job as { id: string | number }).id),
            },
          }
        }
        const report = await refreshReport(ctx.payload, ctx.req)
        return { status: 202, headers: NO_STORE, body: reportBody(ctx, report) }
      },
      docs: orphanDocs.scan,
    },
    {
      method: 'GET',
      path: '/_/orphaned_resources',
      handler: async (ctx): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const report = await loadReport(ctx.payload, 'latest', ctx.req)
        if (!report) throw notFound('No orphaned resources report yet: run a scan first.')
        return { status: 200, headers: NO_STORE, body: reportBody(ctx, report) }
      },
      docs: orphanDocs.report,
    },
    {
      method: 'POST',
      path: '/_/orphaned_resources/delete',
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const request = parseDeleteBody(body)
        const result = await deleteOrphans(ctx.payload, ctx.req, request)
        return {
          status: 200,
          headers: NO_STORE,
          body: { '@context': context(ctx), '@type': 'OrphanDeleteResult', ...result },
        }
      },
      docs: orphanDocs.delete,
    },
    {
      method: 'GET',
      path: '/_/usage',
      handler: async (ctx): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const usage = await componentUsage(ctx, ctx.query.get('iri'))
        return { status: 200, headers: NO_STORE, body: usage }
      },
      docs: orphanDocs.usage,
    },
  ]
}

import type { OpenApiDocument, OpenApiKit, Schema } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'

/** The OpenAPI text of the orphaned-resource endpoints and GET /_/usage. */

const iriList = (description: string): Schema => ({
  type: 'array',
  items: { type: 'string', format: 'iri-reference' },
  description,
})

const reportSchema: Schema = {
  type: 'object',
  properties: {
    generatedAt: { type: 'string', description: 'When the report was made: ISO 8601 with microseconds (UTC)' },
    componentGroups: iriList('Orphaned component groups'),
    componentPositions: iriList('Orphaned component positions'),
    components: iriList('Orphaned components (a draft is never listed: it is judged through its published version)'),
  },
  required: ['generatedAt', 'componentGroups', 'componentPositions', 'components'],
}

const json = (kit: OpenApiKit, description: string, schema: Schema, headers = true): Schema => ({
  description,
  ...(headers ? { headers: { 'Cache-Control': { schema: { type: 'string', example: 'private, no-store' } } } } : {}),
  content: { [kit.media.jsonld]: { schema } },
})

export const orphanDocs = {
  scan: (kit: OpenApiKit): EndpointDoc => ({
    operation: {
      operationId: 'scanOrphanedResources',
      tags: ['Orphaned resources'],
      summary: 'Scans for orphaned resources and refreshes the report.',
      description:
        'Admin only. Runs the scan in the request and answers 202 with the new report, unless orphanedResources.scanIn is "job": then a Payload job is queued and the answer (202) comes before the scan; generatedAt of GET /_/orphaned_resources shows when the report is refreshed. Never e-mails. A cross-site browser request is refused (403).',
      security: kit.security(false),
      responses: {
        202: json(kit, 'The refreshed report, or the queued job ({job})', {
          oneOf: [reportSchema, { type: 'object', properties: { job: { type: 'string' } } }],
        }),
        ...kit.errorResponses(401, 403),
      },
    },
  }),
  report: (kit: OpenApiKit): EndpointDoc => ({
    operation: {
      operationId: 'getOrphanedResources',
      tags: ['Orphaned resources'],
      summary: 'The stored orphaned-resource report.',
      description: 'Admin only; private, no-store. 404 until the first scan.',
      security: kit.security(false),
      responses: { 200: json(kit, 'The one latest report', reportSchema), ...kit.errorResponses(401, 403, 404) },
    },
  }),
  delete: (kit: OpenApiKit): EndpointDoc => ({
    operation: {
      operationId: 'deleteOrphanedResources',
      tags: ['Orphaned resources'],
      summary: 'Deletes orphaned resources, with their cascade.',
      description:
        'Admin only. Exactly one of {iris: [IRI]} or {all: true} (otherwise 422, nothing deleted). Scans again in the request and deletes, in one transaction, only IRIs that are orphans now, with the cascade (a group takes its positions and the components used only there; a component the groups it alone owns; a published component its draft unless the draft is placed or held by page data). rejected lists each requested IRI not deleted: not_orphaned (exists, not an orphan now, or a draft) or not_found. The stored report is refreshed; nothing is e-mailed.',
      security: kit.security(false),
      // The request body: the endpoint's input (deleteOrphansInput), generated.
      responses: {
        200: json(kit, 'What was deleted and what was refused', {
          type: 'object',
          properties: {
            deleted: {
              type: 'object',
              properties: {
                componentGroups: iriList('Deleted groups'),
                componentPositions: iriList('Deleted positions'),
                components: iriList('Deleted components'),
              },
            },
            rejected: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  iri: { type: 'string' },
                  reason: { type: 'string', enum: ['not_orphaned', 'not_found'] },
                },
                required: ['iri', 'reason'],
              },
            },
          },
          required: ['deleted', 'rejected'],
        }),
        ...kit.errorResponses(400, 401, 403, 415, 422),
      },
    },
  }),
  usage: (kit: OpenApiKit): EndpointDoc => ({
    operation: {
      operationId: 'getComponentUsage',
      tags: ['Orphaned resources'],
      summary: 'Every place a component is used.',
      description:
        "Admin only (this library's own endpoint). The positions holding the component (with their group and the page, layout or component owning it), the page data properties holding it, and its draft or published twin, in one query.",
      security: kit.security(false),
      parameters: [
        { name: 'iri', in: 'query', required: true, schema: { type: 'string' }, description: 'The component IRI' },
      ],
      responses: {
        200: json(kit, 'Where the component is used', {
          type: 'object',
          properties: {
            component: { type: 'string' },
            positions: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  position: { type: 'string' },
                  componentGroup: { type: 'string' },
                  owner: { type: ['string', 'null'] },
                  pageDataProperty: { type: ['string', 'null'] },
                },
              },
            },
            pageData: {
              type: 'array',
              items: { type: 'object', properties: { pageData: { type: 'string' }, property: { type: 'string' } } },
            },
            draft: { type: ['string', 'null'] },
            published: { type: ['string', 'null'] },
          },
        }),
        ...kit.errorResponses(401, 403, 404, 422),
      },
    },
  }),
}

/** The tag of these operations, in the document's tag list. */
export function amendOrphanDocs(document: OpenApiDocument): void {
  if (!document.tags.some((t) => t.name === 'Orphaned resources')) {
    document.tags.push({
      name: 'Orphaned resources',
      description: 'Orphaned-resource report, its scan and delete, and where a component is used (admin only)',
    })
  }
}

import type { OpenApiKit } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'
import type { Resource } from '../../core/registry.js'
import type { ResolvedField } from './options.js'

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }

/** POST {collection}/{id}/upload (endpoints.ts). */
export const uploadDocs =
  (resource: Resource, fields: ResolvedField[]) =>
  (kit: OpenApiKit): EndpointDoc => ({
    pathParameters: [idParameter],
    operation: {
      operationId: `upload${resource.meta.shortName}`,
      tags: [resource.meta.shortName],
      summary: `Uploads files to a ${resource.meta.shortName}.`,
      description:
        'multipart/form-data, one part per file property (' +
        fields.map((f) => f.name).join(', ') +
        '), streamed to storage. ' +
        'The type is read from the bytes; image variants are made in the same request. The record is found as GET finds it ' +
        '(a permitted editor uploading to a published record writes to its draft). ' +
        '413 past the request limit (21 MiB by default); 422 on the file property past its maxSize, past its pixel limit, or for a broken image.',
      security: kit.security(false),
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: Object.fromEntries(fields.map((f) => [f.name, { type: 'string', format: 'binary' }])),
            },
          },
        },
      },
      responses: {
        200: kit.jsonLdResponse(
          `${resource.meta.shortName} resource, with _metadata.mediaObjects`,
          kit.schemaNames.read(resource),
        ),
        ...kit.errorResponses(400, 401, 403, 404, 415, 422),
        413: kit.errorResponse('The request is over the upload limit (21 MiB by default)'),
      },
    },
  })

/** GET {collection}/{id}/download/{property} (endpoints.ts). */
export const downloadDocs =
  (resource: Resource, fields: ResolvedField[]) =>
  (kit: OpenApiKit): EndpointDoc => ({
    pathParameters: [
      idParameter,
      { name: 'property', in: 'path', required: true, schema: { type: 'string', enum: fields.map((f) => f.name) } },
    ],
    operation: {
      operationId: `download${resource.meta.shortName}`,
      tags: [resource.meta.shortName],
      summary: `The file of a ${resource.meta.shortName}'s file property.`,
      description:
        'Streams the stored file with its stored Content-Type, Content-Disposition and X-Content-Type-Options: nosniff (SVG also with a ' +
        'Content-Security-Policy that blocks scripts). The same access as GET of the record: drafts are 404 to callers without the publish permission.',
      security: kit.security(true),
      parameters: [
        {
          name: 'imagineFilter',
          in: 'query',
          required: false,
          schema: { type: 'string' },
          description: 'A variant instead of the original',
        },
      ],
      responses: {
        200: { description: 'The file', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
        ...kit.errorResponses(401, 403, 404),
      },
    },
  })

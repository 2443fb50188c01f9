import type { OpenApiKit, Schema } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'
import type { Resource } from '../../core/registry.js'
import type { ResolvedField } from './options.js'

/** POST {collection}/{id}/upload (endpoints.ts). */
export const uploadDocs =
  (resource: Resource, fields: ResolvedField[]) =>
  (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => ({
    pathParameters: Object.values(params),
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

/** GET {collection}/{id}/download/{property} and its variant form .../{filter} (endpoints.ts). */
export const downloadDocs =
  (resource: Resource, fields: ResolvedField[], variant: boolean) =>
  (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => ({
    pathParameters: Object.values(params),
    operation: {
      operationId: `download${resource.meta.shortName}${variant ? 'Variant' : ''}`,
      tags: [resource.meta.shortName],
      summary: variant
        ? `An image variant of a ${resource.meta.shortName}'s file property.`
        : `The file of a ${resource.meta.shortName}'s file property.`,
      description:
        'Streams the stored file with its stored Content-Type, Content-Disposition and X-Content-Type-Options: nosniff (SVG also with a ' +
        'Content-Security-Policy that blocks scripts). The record is found as GET of its IRI finds it: published=true asks for the ' +
        'live version, drafts are 404 to callers without the publish permission whatever the query says; other parameters are ignored.' +
        (variant ? ' 404 when the record has no variant of that filter.' : ''),
      security: kit.security(true),
      parameters: [
        {
          name: 'published',
          in: 'query',
          required: false,
          schema: { type: 'boolean' },
          description: 'true: the live version; false: the draft (callers with the publish permission)',
        },
        {
          name: 'imagineFilter',
          in: 'query',
          required: false,
          schema: { type: 'string' },
          description: variant
            ? 'Left out (the path names the variant); when sent it must name the same filter'
            : 'A variant instead of the original (older form of .../download/{property}/{filter}); 400 when it names no filter of the field',
        },
      ],
      responses: {
        200: { description: 'The file', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
        ...kit.errorResponses(400, 401, 403, 404),
      },
    },
  })

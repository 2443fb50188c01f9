import type { OpenApiKit } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'

/** GET {prefix}/_/page_data_metadatas (endpoints.ts). */
export const pageDataMetadataDocs = (kit: OpenApiKit): EndpointDoc => ({
  operation: {
    operationId: 'getPageDataMetadatas',
    tags: ['PageDataMetadata'],
    summary: 'Each page data type with its component-typed properties.',
    description:
      "One member per page data type: resourceClass (its short name, as a position's pageDataClass names it), resourceIri (its collection) and properties, " +
      "each a component-typed property (property, as a position's pageDataProperty names it) with the short name of the component it holds (componentShortName).",
    security: [],
    responses: {
      200: {
        description: 'The page data types',
        content: {
          [kit.media.jsonld]: {
            schema: {
              type: 'object',
              required: ['@id', '@type', 'member', 'totalItems'],
              properties: {
                '@id': { type: 'string' },
                '@type': { type: 'string' },
                totalItems: { type: 'integer' },
                member: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['@id', '@type', 'resourceClass', 'properties'],
                    properties: {
                      '@id': { type: 'string' },
                      '@type': { type: 'string', const: 'PageDataMetadata' },
                      resourceClass: { type: 'string' },
                      resourceIri: { type: 'string', format: 'iri-reference' },
                      properties: {
                        type: 'array',
                        items: {
                          type: 'object',
                          required: ['property', 'componentShortName'],
                          properties: {
                            '@id': { type: 'string' },
                            '@type': { type: 'string' },
                            property: { type: 'string' },
                            componentShortName: { type: 'string' },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
})

import { computed, type PropertyDescription } from '../../hydra/docs/openapi/properties.js'
import { type OpenApiDocument, type OpenApiKit, type Schema, violationSchema } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'
import type { Resource, ResourceRegistry } from '../../core/registry.js'
import { inputJsonSchema } from '../../hydra/input.js'
import { publishableOf } from './config.js'
import { publishInput } from './inputs.js'

/** How publishing shows in the documentation: twin properties, `_metadata`, `?published=`, POST /_/publish. */

/** POST {prefix}/_/publish (endpoints.ts). */
export const publishDocs = (kit: OpenApiKit): EndpointDoc => ({
  operation: {
    operationId: 'publishDrafts',
    tags: ['Publishing'],
    summary: 'Publishes many drafts at once.',
    description:
      'Publishes every listed draft in one transaction, all or nothing, as a PATCH of publishedAt to now would: a draft with a published twin replaces it ' +
      '(positions and page data references follow the published IRI), a draft without one becomes the published record. ' +
      'Needs the publish permission (401 anonymous, 403 others). An IRI that names no draft of a publishable type fails the whole request, and so does a draft failing publish validation (422 with violations).',
    security: kit.security(false),
    // The request body: the endpoint's input (publishInput), generated.
    responses: {
      200: kit.jsonLdResponse('The published records, in the order of the request', 'Publishing.Result'),
      ...kit.errorResponses(400, 401, 403, 404, 415, 422),
    },
  },
})

/**
 * `_metadata` of a publishable type: `publishable` for every caller,
 * `violations` (the publish validation group run on the record) only for
 * callers with the publish permission. Other behaviours add entries of
 * their own (mediaObjects...).
 */
function publishableMetadataSchema(component: boolean): Schema {
  return {
    type: 'object',
    additionalProperties: true,
    properties: {
      publishable: {
        type: 'object',
        description: 'Publishing state, returned to every caller',
        properties: {
          published: {
            type: 'boolean',
            description:
              'true when publishedAt is set and not in the future; a draft reports false even when it has a published twin',
          },
          publishedAt: {
            type: ['string', 'null'],
            format: 'date-time',
            description: "This resource's own publication date",
          },
          locationCount: component
            ? {
                type: ['integer', 'null'],
                minimum: 0,
                description:
                  'Places the component appears: component positions plus page data records holding it in a property',
              }
            : { type: 'null', description: 'Always null: this type has no component positions' },
        },
        required: ['published', 'publishedAt', 'locationCount'],
      },
      violations: {
        type: 'array',
        description:
          'Soft validation of the publish validation group (<ShortName>:published): what would block publishing. Only for callers with the publish permission',
        items: violationSchema,
      },
    },
    required: ['publishable'],
  }
}

/** Twin properties described, and `_metadata` with the publishing state (OpenAPI and Hydra documentation). */
export function describePublishableProperties(resource: Resource, properties: PropertyDescription[]): void {
  const names = publishableOf(resource)
  if (!names) return
  const twinDescriptions: Record<string, string> = {
    [names.publishedAt]:
      'Publication date. null: an unpublished draft; a future date schedules the draft; now or past publishes it (permitted callers; others publish at once)',
    [names.publishedResource]:
      'Set on a draft: the published version it will replace. Maintained by the service, never by a client. null for callers without the publish permission',
    [names.draftResource]:
      'Set on a published record: its pending draft. Maintained by the service. null for callers without the publish permission',
  }
  for (const property of properties) {
    const text = property.field ? twinDescriptions[property.field.name] : undefined
    if (!text) continue
    property.schema = { ...property.schema, description: text }
    if (property.writeSchema) property.writeSchema = { ...property.writeSchema, description: text }
    property.description = text
  }
  const metadata = computed(
    '_metadata',
    publishableMetadataSchema(resource.meta.kind === 'component'),
    'rdf:JSON',
    'Computed information (publishing state, publish violations, media objects...)',
  )
  const at = properties.findIndex((p) => p.json === '_metadata')
  if (at >= 0) properties[at] = metadata
  else properties.push(metadata)
}

/** `?published=` of a publishable resource (contract: "Read parameter" and the read routing table). */
function publishedParameter(use: 'collection' | 'item' | 'delete'): Schema {
  const description = {
    collection:
      'true: only published records; false: only drafts (unpublished, scheduled, or pending edits of published records). ' +
      'Without it, callers with the publish permission get each draft in place of its published version; other callers always get published records only, whatever the value.',
    item:
      'true: the published version (also when the IRI names its draft); false: the draft. ' +
      'Without it, callers with the publish permission get the draft when one exists, else the published version. ' +
      'Callers without the permission always get the published version, and a 404 for a draft IRI or a record never published.',
    delete:
      'true: removes only the published version; its draft is kept and takes no positions. Without it, deleting a published record hands its positions and page data references to its draft.',
  }[use]
  return { name: 'published', in: 'query', required: false, description, schema: { type: 'boolean' } }
}

const POST_TEXT =
  'Publishable: a caller with the publish permission creates a draft (no publishedAt), a scheduled draft (a future publishedAt) or, with publishedAt now or past, ' +
  'a published record (publish validation applies). A caller without the permission publishes at once. publishedResource and draftResource are never taken from the body.'
const PATCH_TEXT =
  ' Publishable: a caller with the publish permission editing a published record edits its draft (created on the first edit); ' +
  'setting publishedAt to now or a past date on a draft publishes it (publish validation applies, 422 with violations), a future date schedules it. A caller without the permission updates the published record directly.'

function publishSchemas(publishable: Resource[], kit: OpenApiKit): Record<string, Schema> {
  return {
    'Publishing.Request': inputJsonSchema(publishInput(publishable)),
    'Publishing.Result': kit.jsonLdNode(
      'PublishResult',
      {
        published: {
          type: 'array',
          description: 'Each published record as now served (its published IRI)',
          items: { oneOf: publishable.map((r) => kit.ref(kit.schemaNames.read(r))) },
        },
      },
      ['published'],
    ),
  }
}

type Operation = { parameters?: Schema[]; description?: string }

/** The resources' operations learn `?published=` and the draft rules; the Publishing schemas and tag join. */
export function amendPublishableDocs(document: OpenApiDocument, kit: OpenApiKit): void {
  const publishable = publishableResources(kit.registry)
  if (publishable.length === 0) return
  for (const resource of publishable) {
    const collection = document.paths[resource.collectionIri] as Record<string, Operation> | undefined
    const item = document.paths[`${resource.collectionIri}/{id}`] as Record<string, Operation> | undefined
    const addParameter = (operation: Operation | undefined, use: 'collection' | 'item' | 'delete') => {
      if (operation) operation.parameters = [...(operation.parameters ?? []), publishedParameter(use)]
    }
    addParameter(collection?.get, 'collection')
    addParameter(item?.get, 'item')
    addParameter(item?.delete, 'delete')
    if (collection?.post) collection.post.description = POST_TEXT
    if (item?.patch) item.patch.description = `${item.patch.description ?? ''}${PATCH_TEXT}`
  }
  Object.assign(document.components.schemas, publishSchemas(publishable, kit))
  document.tags.splice(document.tags.findIndex((t) => t.name === 'Entrypoint') + 1, 0, {
    name: 'Publishing',
    description: 'Draft/publish workflow of publishable types',
  })
}

export const publishableResources = (registry: ResourceRegistry) =>
  registry.all().filter((r) => publishableOf(r) !== null)

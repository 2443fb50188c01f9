import type { OpenApiDocument, OpenApiKit, Schema } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'
import { TYPE_ICONS } from '../../core/admin/typeIcons.js'

/** The OpenAPI text of the page builder's endpoints (the admin panel's page builder view calls them). */

const TAG = 'Page builder'
const json = (kit: OpenApiKit, description: string, schema: Schema): Schema => ({
  description,
  content: { [kit.media.jsonld]: { schema } },
})

const component: Schema = {
  type: ['object', 'null'],
  properties: {
    '@id': { type: 'string' },
    slug: { type: 'string' },
    id: { type: 'string' },
    type: { type: 'string' },
    label: { type: 'string', description: 'The type as the admin names it' },
    icon: { type: 'string', enum: [...TYPE_ICONS], description: "The icon beside the type's name" },
    title: { type: 'string' },
    drafts: {
      type: 'boolean',
      description: 'Whether its edits go to a draft (a publishable type); false: they go live at once',
    },
  },
}
const group: Schema = {
  type: 'object',
  properties: {
    '@id': { type: 'string' },
    reference: { type: 'string' },
    location: { type: ['string', 'null'] },
    allowedComponents: { type: ['array', 'null'], items: { type: 'string' } },
    addable: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          '@id': { type: 'string' },
          slug: { type: 'string' },
          type: { type: 'string' },
          label: { type: 'string' },
          icon: { type: 'string', enum: [...TYPE_ICONS] },
          drafts: { type: 'boolean', description: 'Whether a new block of the type is a draft; false: live at once' },
        },
      },
      description: 'Types the add-component choice offers',
    },
    positions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          '@id': { type: 'string' },
          sortValue: { type: 'integer' },
          component,
          pageDataClass: { type: ['string', 'null'] },
          pageDataProperty: { type: ['string', 'null'] },
          binding: {
            type: ['string', 'null'],
            description:
              "A dynamic position's binding in words (the page data type and property as the admin names them)",
          },
          resolvesTo: { ...component, description: 'On page data: the component the property resolves to' },
        },
      },
    },
  },
}
const owner: Schema = {
  type: ['object', 'null'],
  properties: {
    '@id': { type: 'string' },
    type: { type: 'string' },
    reference: { type: ['string', 'null'] },
    groups: { type: 'array', items: group },
  },
}

const operation = (kit: OpenApiKit, op: Schema): EndpointDoc => ({
  operation: { tags: [TAG], security: kit.security(false), ...op },
})

export const pageBuilderDocs = {
  view: (kit: OpenApiKit): EndpointDoc =>
    operation(kit, {
      operationId: 'getPageBuilder',
      summary: 'A page, layout or page data as the page builder shows it.',
      description:
        "Admin only. The layout and the page (for page data: its template page) with each group's positions in sortValue order, each component with its type and title, the types the add-component choice offers in each group (its allowedComponents, else every type but the explicit-allow-only ones), and on page data the component each dynamic position resolves to.",
      parameters: [
        {
          name: 'iri',
          in: 'query',
          required: true,
          schema: { type: 'string' },
          description: 'The IRI of a page, a layout or page data',
        },
      ],
      responses: {
        200: json(kit, 'The page builder view', {
          type: 'object',
          properties: {
            owner: { type: 'object' },
            layout: owner,
            page: owner,
            route: {
              type: ['object', 'null'],
              description:
                "The route of the page or page data (null on a layout, a template page, a record without a route): its path, its own liveAt, the effectiveLiveAt it is public from, and state (live, scheduled, offline). A route whose own liveAt is empty or to come goes public with the page's next publication.",
              properties: {
                '@id': { type: 'string' },
                path: { type: 'string' },
                liveAt: { type: ['string', 'null'] },
                effectiveLiveAt: { type: ['string', 'null'] },
                state: { type: 'string', enum: ['live', 'scheduled', 'offline'] },
                waits: {
                  type: 'boolean',
                  description:
                    "Whether the page's next publication gives the route its date (its own liveAt empty or to come)",
                },
              },
            },
          },
        }),
        ...kit.errorResponses(401, 403, 404, 422),
      },
    }),
  reorder: (kit: OpenApiKit): EndpointDoc =>
    operation(kit, {
      operationId: 'reorderComponentPositions',
      summary: "Puts a group's positions in a new order.",
      description:
        "Admin only. positions lists every position of the group exactly once, in the new order; their sortValue becomes 0, 1, 2... in one transaction. A list that is not the group's positions (one missing, one of another group, a duplicate) is a 422, or a 409 when the group's positions changed since they were read (another editor added or removed one): nothing is written. Reorders of one group run one after the other.",
      // The request body: the endpoint's input (reorderInput), generated.
      responses: {
        200: json(kit, 'The new order', {
          type: 'object',
          properties: {
            positions: {
              type: 'array',
              items: { type: 'object', properties: { '@id': { type: 'string' }, sortValue: { type: 'integer' } } },
            },
          },
        }),
        409: kit.errorResponse("The group's positions changed: reload and try again"),
        ...kit.errorResponses(400, 401, 403, 404, 415, 422),
      },
    }),
  append: (kit: OpenApiKit): EndpointDoc =>
    operation(kit, {
      operationId: 'appendComponentPosition',
      summary: 'Places a component at the end of a group.',
      description:
        "Admin only. A new position after the group's last one. The position rules apply: a type the group does not allow, or an explicit-allow-only type in a group that does not name it, is a 422 and nothing is written.",
      // The request body: the endpoint's input (appendInput), generated.
      responses: {
        201: json(kit, 'The new position', { type: 'object' }),
        ...kit.errorResponses(400, 401, 403, 404, 415, 422),
      },
    }),
  addGroup: (kit: OpenApiKit): EndpointDoc =>
    operation(kit, {
      operationId: 'addComponentGroup',
      summary: 'Adds a group to a page or layout.',
      description:
        "Admin only. A new group at location (reference <owner reference>_<location>; with compat 'cwa-nuxt' <location>_<owner IRI>), added to the owner's groups in one transaction. A location the owner already has is a 422.",
      // The request body: the endpoint's input (addGroupInput), generated.
      responses: {
        201: json(kit, 'The new group', { type: 'object' }),
        ...kit.errorResponses(400, 401, 403, 404, 415, 422),
      },
    }),
  addBlock: (kit: OpenApiKit): EndpointDoc =>
    operation(kit, {
      operationId: 'addPageBuilderBlock',
      summary: 'Creates a block with its content and places it at the end of a group, in one step.',
      description:
        "Admin only. type is a component type's collection IRI; data holds its text fields (the main field the builder view names per addable type), for a type linking to a page its route as an IRI (main.link names the field), and, for an uploadable type, a file as a named data URI (data:<type>;name=<file name>;base64,...). The component is created as the editor (a publishable type starts as a draft) and placed after the group's last position, in one transaction: a refused field, file or type (422) leaves nothing behind.",
      // The request body: the endpoint's input (addBlockInput), generated.
      responses: {
        201: json(kit, 'The new block and its position', {
          type: 'object',
          properties: { component: { type: 'string' }, position: { type: 'string' }, sortValue: { type: 'integer' } },
        }),
        413: kit.errorResponse('The body is over the request limit (a file too large)'),
        ...kit.errorResponses(400, 401, 403, 404, 415, 422),
      },
    }),
  publish: (kit: OpenApiKit): EndpointDoc =>
    operation(kit, {
      operationId: 'publishPage',
      summary: 'Publishes a page as a whole: every pending draft reachable from it, in one transaction.',
      description:
        "Admin with the publish permission. iri names a page, a layout or page data. Every pending draft reachable from it (its groups' components to any depth, live records' draft twins, scheduled drafts; on page data the record itself and the components its properties point at; the layout's blocks only with includeLayout: true, or when iri is the layout) is published through the batch publish, all or nothing. A draft failing its publish validation refuses the whole request: a 422 with one violation per block and field, each naming the block (block: the IRI the builder lists, draft: the draft's IRI, field) and saying why in words. A page whose route waits for its first publication (the admin panel generated it; its own liveAt is empty or to come) goes public in the same transaction: route is its path. Nothing pending and no route waiting: 200 with an empty list.",
      // The request body: the endpoint's input (publishPageInput), generated.
      responses: {
        200: json(kit, 'What was published', {
          type: 'object',
          properties: {
            published: {
              type: 'array',
              items: { type: 'string' },
              description: 'The live records now holding the content',
            },
            blocks: { type: 'array', items: { type: 'string' } },
            route: {
              type: ['string', 'null'],
              description: 'The path of the route that went public with the page (null: none waited)',
            },
            totalItems: { type: 'integer' },
          },
        }),
        ...kit.errorResponses(400, 401, 403, 404, 415, 422),
      },
    }),
  schedule: (kit: OpenApiKit): EndpointDoc =>
    operation(kit, {
      operationId: 'schedulePage',
      summary: 'Schedules a page as a whole: every pending draft reachable from it goes live at one date.',
      description:
        'Admin with the publish permission. The same drafts as publishPage, each given publishedAt (a future date) in one transaction; the same refusals (422 per block and field), and a date that is not in the future is a 422. A route waiting for the first publication of the page gets publishedAt as its liveAt (route: its path).',
      // The request body: the endpoint's input (schedulePageInput), generated.
      responses: {
        200: json(kit, 'What was scheduled', {
          type: 'object',
          properties: {
            scheduled: { type: 'array', items: { type: 'string' } },
            publishedAt: { type: 'string' },
            route: {
              type: ['string', 'null'],
              description: 'The path of the route that goes public at publishedAt (null: none waited)',
            },
            totalItems: { type: 'integer' },
          },
        }),
        ...kit.errorResponses(400, 401, 403, 404, 415, 422),
      },
    }),
  remove: (kit: OpenApiKit): EndpointDoc =>
    operation(kit, {
      operationId: 'removeComponentPosition',
      summary: 'Removes a position, and its component when used nowhere else.',
      description:
        'Admin only. Deletes the position; its component goes too when this position was its only use (no other position, no page data property), with the delete cascade (the groups it owns, its draft). One transaction. Answers every IRI deleted.',
      // The request body: the endpoint's input (removeInput), generated.
      responses: {
        200: json(kit, 'What was deleted', {
          type: 'object',
          properties: { deleted: { type: 'array', items: { type: 'string' } } },
        }),
        ...kit.errorResponses(400, 401, 403, 404, 415, 422),
      },
    }),
}

export function amendPageBuilderDocs(document: OpenApiDocument): void {
  if (!document.tags.some((t) => t.name === TAG))
    document.tags.push({
      name: TAG,
      description: "The admin panel's page builder: a page's structure, reordering, adding and removing (admin only)",
    })
}

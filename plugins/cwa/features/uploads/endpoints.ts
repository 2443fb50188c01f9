import type { Readable } from 'node:stream'
import type { Endpoint } from '../../hydra/endpoint.js'
import { badRequest, notFound } from '../../hydra/errors.js'
import { discardRest } from '../../hydra/pipeline/body.js'
import { beforeItemRead } from '../../hydra/extensions/requestHooks.js'
import type { HydraContext } from '../../hydra/context.js'
import { assertMayWrite, loadItem, withJoins } from '../../hydra/operations.js'
import { storeFor } from '../../hydra/store.js'
import { isUuid, type Resource, type ResourceRegistry } from '../../core/registry.js'
import { fieldsOf, filtersOf } from './fields.js'
import { infoFor } from './info.js'
import { readMultipart, uploadTooLarge } from './multipart.js'
import type { ResolvedField } from './options.js'
import { downloadDocs, uploadDocs } from './openapi.js'
import { isRaster } from './sniff.js'
import { discardStaged } from './store.js'
import { stageToken, sweepStaging } from './staging.js'
import { safeStoredPath } from './storage/adapter.js'
import { storageFor } from './storage/registry.js'

/** The record as GET of its IRI finds it for this caller: the same read gate and draft routing (404, 401, 403). */
async function readGate(resource: Resource, id: string, ctx: HydraContext): Promise<Record<string, unknown>> {
  await beforeItemRead(resource, id, ctx)
  return loadItem(resource, id, ctx, { filtered: false })
}

/** A record's `{id}`: a UUID (anything else is a 404). */
const uuidParameter = { schema: { type: 'string', format: 'uuid' } }

/** POST {collection}/{id}/upload: multipart, one part per file property. */
function uploadEndpoint(resource: Resource, fields: ResolvedField[]): Endpoint {
  return {
    method: 'POST',
    path: `${resource.meta.pathPrefix}/${resource.meta.segment}/{id}/upload`,
    paramDocs: { id: uuidParameter },
    body: 'stream',
    handler: async (ctx, request) => {
      const id = request.params.id!
      if (!isUuid(id)) throw notFound()
      await readGate(resource, id, ctx)
      await assertMayWrite(resource, 'update', ctx, id.toLowerCase())
      const limit = ctx.options.uploads.maxRequestBytes
      const length = ctx.headers.get('content-length')
      if (length && /^\d+$/.test(length) && Number(length) > limit) {
        if (request.stream) discardRest(request.stream)
        throw uploadTooLarge(limit)
      }
      void sweepStaging(ctx.payload)
      const staged = await readMultipart(ctx.payload, ctx.headers.get('content-type'), request.stream, fields, limit)
      const files = [...staged.values()].map((upload) => upload.file)
      let doc: Record<string, unknown>
      try {
        if (staged.size === 0)
          throw badRequest(
            `No file was sent: send one part per file property (${fields.map((f) => f.name).join(', ')}).`,
          )
        const data: Record<string, unknown> = {}
        for (const [field, upload] of staged) data[field.name] = stageToken(ctx.req, upload)
        doc = await storeFor(resource, ctx).update(id.toLowerCase(), data)
      } catch (error) {
        // Refused: the staged files never reach the storage. (Accepted ones leave staging when they are put, after commit.)
        await discardStaged(files)
        throw error
      }
      // As a GET right after answers it: Payload's update leaves join fields (componentPositions) empty.
      return { status: 200, item: { resource, doc: await withJoins(resource, doc, ctx) } }
    },
    docs: uploadDocs(resource, fields),
  }
}

const contentDisposition = (disposition: 'inline' | 'attachment', filename: string) =>
  `${disposition}; filename="${filename.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`

/**
 * The variant a download asks for: the path's `{filter}` segment (what
 * `contentUrl` names) or the older `?imagineFilter=`, null for the original.
 * A query value naming no filter of the field is a 400; a filter the record
 * has no variant of is a 404 (below).
 */
function variantAsked(
  resource: Resource,
  field: ResolvedField,
  ctx: HydraContext,
  fromPath: string | undefined,
): string | null {
  const asked = ctx.query.getAll('imagineFilter')
  if (asked.length > 1) throw badRequest('Send imagineFilter once.')
  const fromQuery = asked[0]
  if (fromQuery === undefined) return fromPath ?? null
  const known = filtersOf(resource.meta, field, ctx.req)
  if (!known.includes(fromQuery))
    throw badRequest(
      known.length > 0
        ? `imagineFilter must name an image filter of ${field.name}: ${[...new Set(known)].join(', ')}.`
        : `${field.name} has no image variants: leave imagineFilter out.`,
    )
  if (fromPath !== undefined && fromPath !== fromQuery)
    throw badRequest('The path names a variant already: leave imagineFilter out.')
  return fromQuery
}

/**
 * GET {collection}/{id}/download/{property}[/{filter}]: streams the stored
 * file. The record is found as GET of its IRI finds it: `?published=true`
 * asks for the live version as on an item GET (the CWA module appends it to
 * every `contentUrl` it shows), a draft is a 404 to callers who may not see
 * drafts whatever the query says, other parameters are ignored.
 */
function downloadEndpoint(resource: Resource, fields: ResolvedField[], variant: boolean): Endpoint {
  const byName = new Map(fields.map((f) => [f.name, f]))
  const path = `${resource.meta.pathPrefix}/${resource.meta.segment}/{id}/download/{property}`
  return {
    method: 'GET',
    path: variant ? `${path}/{filter}` : path,
    params: { property: (value) => byName.has(value) },
    paramDocs: {
      id: uuidParameter,
      property: { schema: { type: 'string', enum: fields.map((f) => f.name) } },
      ...(variant
        ? { filter: { description: 'An image filter of the field (thumbnail): its variant, as contentUrl names it' } }
        : {}),
    },
    handler: async (ctx, request) => {
      const id = request.params.id!
      const field = byName.get(request.params.property!)!
      if (!isUuid(id)) throw notFound()
      const doc = await readGate(resource, id, ctx)
      const filter = variantAsked(resource, field, ctx, request.params.filter)
      // The stored path is checked again before every read of the file.
      const original = safeStoredPath(doc[field.property])
      if (!original) throw notFound('This record has no file here.')
      const rows = (await infoFor(ctx.payload, [original], ctx.req)).filter((row) => row.adapter === field.adapter)
      const row = filter
        ? rows.find((r) => r.source === original && r.filter === filter)
        : rows.find((r) => r.source === null)
      if (filter && !row) throw notFound('No such image variant.')
      const stored = safeStoredPath(row?.path ?? original)
      if (!stored) throw notFound()
      const file = await storageFor(ctx.payload, field.adapter).get(stored)
      if (!file) {
        ctx.payload.logger.warn(
          { path: stored, field: field.name, resource: resource.meta.shortName, id },
          'cwa uploads: a stored file is missing from its storage',
        )
        throw notFound('The file is missing from storage.')
      }
      const mimeType = row?.mimeType ?? 'application/octet-stream'
      const headers: Record<string, string> = {
        'Content-Length': String(file.size),
        'Content-Disposition': contentDisposition(
          isRaster(mimeType) ? 'inline' : 'attachment',
          stored.split('/').pop()!,
        ),
        'X-Content-Type-Options': 'nosniff',
        // Whatever a file holds (an SVG with a script), it never runs as a page of this origin.
        'Content-Security-Policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
      }
      return { status: 200, headers, raw: { contentType: mimeType, data: file.stream as Readable } }
    },
    docs: downloadDocs(resource, fields, variant),
  }
}

/** The upload and download endpoints of every type with file fields. */
export function uploadEndpoints(registry: ResourceRegistry): Endpoint[] {
  return registry.all().flatMap((resource) => {
    const fields = fieldsOf(resource.meta)
    return fields.length === 0
      ? []
      : [
          uploadEndpoint(resource, fields),
          downloadEndpoint(resource, fields, false),
          downloadEndpoint(resource, fields, true),
        ]
  })
}

import { type Endpoint, withInput } from '../../hydra/endpoint.js'
import { violation, ViolationError } from '../../hydra/errors.js'
import { embedItem } from '../../hydra/embedded.js'
import type { ResourceRegistry } from '../../core/registry.js'
import { publishableOf } from './config.js'
import { publishInput } from './inputs.js'
import { publishDocs } from './openapi.js'
import { publishMany } from './publishMany.js'
import { publishContext } from './store.js'

/**
 * POST {prefix}/_/publish {"iris": [...]}: publishes many drafts (say,
 * everything drafted on one page) in one transaction, all or nothing.
 * Declared when the site has a publishable type. Who may publish (the
 * publish permission: 401 anonymous, 403 others) is its declared security,
 * decided before anything in the body is looked at.
 */
export function publishableEndpoints(registry: ResourceRegistry): Endpoint[] {
  const publishable = registry.all().filter((r) => publishableOf(r) !== null)
  if (publishable.length === 0) return []
  return [
    withInput({
      method: 'POST',
      path: '/_/publish',
      security: { granted: (ctx, isGranted) => isGranted(ctx.options.publishable.permission) },
      input: publishInput(publishable),
      handler: async (ctx, { body }) => {
        const seen = new Set<string>()
        const drafts = []
        for (const [index, iri] of body.iris.entries()) {
          const parsed = ctx.registry.parseIri(iri)
          const names = parsed?.id ? publishableOf(parsed.resource) : null
          if (!parsed?.id || !names)
            throw new ViolationError([
              violation(`iris[${index}]`, `"${iri}" is not a publishable item IRI.`, 'invalid_iri'),
            ])
          const key = `${parsed.resource.slug}:${parsed.id}`
          if (seen.has(key)) continue
          seen.add(key)
          const { payload: _p, req: _r, ...rest } = publishContext(parsed.resource, names, ctx)
          drafts.push({ ctx: rest, id: parsed.id, index, resource: parsed.resource })
        }
        const published = await publishMany(ctx.payload, ctx.req, drafts)
        // Records the pipeline normalizes where they stand.
        const member = []
        for (const [index, doc] of published.entries()) member.push(embedItem(drafts[index]!.resource, doc))
        return { status: 200, output: { type: 'PublishResult', data: { published: member } } }
      },
      docs: publishDocs,
    }),
  ]
}

import type { Router } from 'express'
import type { Payload } from 'payload'
import { badRequest, forbidden, notFound, unauthorized, violation, ViolationError } from '../../src/hydra/errors'
import { handle } from '../../src/hydra/http'
import { normalizeItem } from '../../src/hydra/normalizer'
import { publishableOf } from './config'
import { publishContext } from './store'
import { publishMany } from './stateMachine'

/**
 * POST {prefix}/_/publish {"iris": [...]}: publishes many drafts (say,
 * everything drafted on one page) in one transaction, all or nothing.
 */
export function publishBulkRoute(router: Router, payload: Payload): void {
  router.post(
    '/_/publish',
    handle(payload, async (ctx, req) => {
      const iris = (req.body as { iris?: unknown } | undefined)?.iris
      if (!Array.isArray(iris) || iris.length === 0 || iris.some((iri) => typeof iri !== 'string')) {
        throw new ViolationError([violation('iris', 'A non-empty list of draft IRIs is required.', 'required')])
      }
      if (iris.length > 200) throw badRequest('At most 200 IRIs at once.')
      const drafts = iris.map((iri, index) => {
        const parsed = ctx.registry.parseIri(iri)
        const names = parsed?.id ? publishableOf(parsed.resource) : null
        if (!parsed?.id || !names) throw new ViolationError([violation(`iris[${index}]`, `"${iri}" is not a publishable item IRI.`, 'invalid_iri')])
        const { payload: _p, req: _r, ...rest } = publishContext(parsed.resource, names, ctx)
        if (!rest.permitted) throw ctx.user ? forbidden() : unauthorized()
        return { ctx: rest, id: parsed.id, resource: parsed.resource }
      })
      const published = await publishMany(ctx.payload, ctx.req, drafts).catch((error: unknown) => {
        if ((error as { status?: number }).status === 404) throw notFound((error as Error).message)
        throw error
      })
      const member = []
      for (const [index, doc] of published.entries()) member.push(await normalizeItem(drafts[index]!.resource, doc, ctx, { withContext: false }))
      return { status: 200, body: { '@context': `${ctx.options.apiPrefix}/contexts/Entrypoint`, '@type': 'PublishResult', published: member } }
    }),
  )
}

import type { HydraExtension } from '../../hydra/extension.js'
import { getOptions } from '../../core/registry.js'
import { compatEndpoints } from './endpoints.js'
import { compatProfile } from './profile.js'
import { rewriteInput } from './rewrite.js'
import { addAssociated, prepareAssociated } from './associatedResources.js'
import { pointAtDraft, prepareDraftComponents } from './draftPositions.js'

/**
 * The `compat: 'cwa-nuxt'` profile: its endpoints, how the pipeline writes
 * its IRIs and keys on output (profile.ts) and reads them on input
 * (rewrite.ts). Inert without the option.
 */
export const compatExtension: HydraExtension = {
  name: 'compat',
  endpoints: (registry, options) => (options?.compat ? compatEndpoints(registry.bySlug('forms') !== undefined) : []),
  rewriteInput: async (body, ctx) =>
    ctx.options.compat ? rewriteInput(body, ctx.options, ctx.payload, ctx.req) : body,
  profile: ({ payload, ctx }) => {
    const options = getOptions(payload.config)
    return options.compat ? compatProfile(options, payload, ctx?.req) : null
  },
  // The module forwards its page's query string (?search=first) on every item GET.
  itemFilters: (ctx) => !ctx.options.compat,
  // The module's route list names what each route leads to (admins); a position names its component's draft
  // to callers who may see drafts (draftPositions.ts).
  async prepareItems(docs, resource, ctx) {
    if (!ctx.options.compat) return
    if (resource.slug === 'routes') await prepareAssociated(docs, ctx)
    if (resource.slug === 'component_positions') await prepareDraftComponents(docs, ctx)
  },
  async normalizeItem(item, doc, resource, ctx) {
    if (!ctx.options.compat) return
    if (resource.slug === 'routes') addAssociated(item, doc, ctx)
    if (resource.slug === 'component_positions') await pointAtDraft(item, ctx)
  },
}

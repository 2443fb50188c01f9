import type { HydraExtension } from '../../hydra/extension.js'
import { getOptions } from '../../core/registry.js'
import { addCorsHeaders, isCorsOrigin } from './cors.js'
import { frontEndEndpoints } from './endpoints.js'

/** What front ends on their own origin need: CORS (and the writes it allows), the page data metadata. */
export const frontEndExtension: HydraExtension = {
  name: 'front-end',
  endpoints: frontEndEndpoints,
  openApi(document) {
    document.tags = [
      ...(document.tags ?? []),
      { name: 'PageDataMetadata', description: 'Page data types and their component properties' },
    ]
  },
  // The site's front ends may write (the cross-site write refusal lets them through, on both APIs).
  allowsOrigin: (origin, payload) => isCorsOrigin(origin, getOptions(payload.config).cors),
  crossOrigin(request, headers) {
    addCorsHeaders(request, headers, getOptions(request.payload.config).cors)
  },
}

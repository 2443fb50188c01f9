import { getOptions } from '../../core/registry.js'
import type { HydraExtension } from '../../hydra/extension.js'
import { isAllowedOrigin } from './email/links.js'
import { userFlowEndpoints } from './endpoints.js'
import { amendUserDocs } from './openapi.js'

/** Users: the e-mail flows (verification, password reset, e-mail change) and their endpoints. */
export const usersExtension: HydraExtension = {
  name: 'users',
  endpoints: userFlowEndpoints,
  openApi: amendUserDocs,
  // The front ends named for e-mail links (defaultOrigin, allowedOrigins) are the site's own: they may write.
  allowsOrigin(origin, payload) {
    const links = getOptions(payload.config).user.emailLinks
    const normalized = origin.toLowerCase()
    return (
      (links.defaultOrigin !== null && links.defaultOrigin.replace(/\/+$/, '').toLowerCase() === normalized) ||
      isAllowedOrigin(origin, links.allowedOrigins)
    )
  },
}

import { getOptions } from '../../core/registry.js'
import type { HydraExtension } from '../../hydra/extension.js'
import { isAllowedOrigin } from './email/links.js'
import { userFlowEndpoints } from './endpoints.js'
import { amendUserDocs } from './openapi.js'
import { describeRoles, outputRoles, rolesTerm } from './roles.js'

/**
 * Users: the e-mail flows (verification, password reset, e-mail change) and
 * their endpoints, registration through the generic POST, and the roles a
 * user item serves (roles.ts).
 */
export const usersExtension: HydraExtension = {
  name: 'users',
  endpoints: userFlowEndpoints,
  openApi: amendUserDocs,
  // Registration: anyone may ask; the users collection's own access opens or closes it (a 403 when closed).
  publicCreate: (resource) => resource.meta.kind === 'user',
  normalizeItem: outputRoles,
  describeContext: rolesTerm,
  describeProperties: describeRoles,
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

import type { HydraExtension } from '../hydra/extension.js'
import { authenticateRequest } from './authenticateRequest.js'
import { sessionEndpoints } from './endpoints.js'
import { amendSessionDocs, sessionSecuritySchemes } from './openapi.js'

/** Sessions: who the caller is (JWT cookie or bearer, transparent refresh) and the login, refresh, logout and me endpoints. */
export const sessionExtension: HydraExtension = {
  name: 'session',
  authenticate: authenticateRequest,
  endpoints: sessionEndpoints,
  securitySchemes: sessionSecuritySchemes,
  openApi: amendSessionDocs,
}

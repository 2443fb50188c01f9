import type { HydraExtension } from '../hydra/extension'
import { authenticateRequest } from './authenticateRequest'
import { sessionEndpoints } from './endpoints'
import { amendSessionDocs, sessionSecuritySchemes } from './openapi'

/** Sessions: who the caller is (JWT cookie or bearer, transparent refresh) and the login, refresh, logout and me endpoints. */
export const sessionExtension: HydraExtension = {
  name: 'session',
  authenticate: authenticateRequest,
  endpoints: sessionEndpoints,
  securitySchemes: sessionSecuritySchemes,
  openApi: amendSessionDocs,
}

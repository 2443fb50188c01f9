import type { HydraExtension } from '../../hydra/extension'
import { userFlowEndpoints } from './endpoints'
import { amendUserDocs } from './openapi'

/** Users: the e-mail flows (verification, password reset, e-mail change) and their endpoints. */
export const usersExtension: HydraExtension = {
  name: 'users',
  endpoints: userFlowEndpoints,
  openApi: amendUserDocs,
}

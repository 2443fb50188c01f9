import type { HydraExtension } from '../../hydra/extension'
import { mountUserFlowEndpoints } from './endpoints'
import { usersOpenApi } from './openapi'

/** Users: the email flows (verification, password reset, email change) and their endpoints. */
export const usersExtension: HydraExtension = {
  name: 'users',
  mount: mountUserFlowEndpoints,
  openApi: usersOpenApi,
}

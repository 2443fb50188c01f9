/**
 * payload-cwa: the public front door. Everything a Payload app, a plugin
 * author or a server needs, from one module (`payload-cwa`).
 */
export { cwaPlugin } from './plugin'
export { type ComponentDeclaration, defineComponent, definePageData, type PageDataDeclaration } from './core/define'
export type { CwaPluginOptions, ResolvedCwaOptions, SecurityExpression } from './options'
export { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from './options'
export { choice, custom, defineFormType, email, length, notBlank, persistSubmission, range, regex } from './features/forms'
export type * from './features/forms/types'
export { isPublished, onPublishEvent, type PublishEvent, type PublishListener, publicationState } from './features/publishable'
export { type RouteGenerator, slugRouteGenerator } from './features/routes'
export type { AuthenticationRequest, HydraExtension, JsonLdObject, ResponseInfo } from './hydra/extension'
export type { ApiRequest, Endpoint, EndpointDoc, EndpointResult, HttpMethod } from './hydra/endpoint'
export type { HydraContext } from './hydra/context'
export { type JwtKeys, loadJwtKeys } from './session'
export { type AppOptions, createApp, createCwaHandler, createCwaNextHandler, cwaExpress, type CwaFetchHandler, payloadKeys } from './server'

/**
 * payload-cwa: the public front door. Everything a Payload app, a plugin
 * author or a server needs, from one module (`payload-cwa`).
 */
export { cwaPlugin } from './plugin'
export { type ComponentDeclaration, defineComponent, definePageData, type PageDataDeclaration } from './core/define'
export { checkOptionKeys, type CwaPluginOptions, type ResolvedCwaOptions, resolveOptions, ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER, type SecurityExpression } from './options'
export { adminOnly } from './core/access'
export { getOptions, getRegistry, type Resource, type ResourceRegistry } from './core/registry'
export { relationCollection, relationId } from './core/utils/relations'
export { closePayload } from './core/utils/closePayload'
export { choice, custom, defineFormType, email, length, notBlank, persistSubmission, range, regex } from './features/forms'
export type * from './features/forms/types'
export { isPublished, onPublishEvent, publishableOf, type PublishEvent, type PublishListener, publicationState } from './features/publishable'
export { type RouteGenerator, slugRouteGenerator } from './features/routes'
export type { AuthenticationRequest, HydraExtension, JsonLdObject, ResponseInfo } from './hydra/extension'
export type { ApiRequest, Endpoint, EndpointDoc, EndpointResult, HttpMethod } from './hydra/endpoint'
export type { CwaFeature } from './hydra/feature'
export type { OpenApiDocument, OpenApiKit, Schema } from './hydra/docs/openapi/kit'
export type { PropertyDescription } from './hydra/docs/openapi/propertyDescription'
export type { Doc, ItemStore } from './hydra/itemStore'
export type { HydraContext } from './hydra/context'
export { type JwtKeys, loadJwtKeys, RefreshTokenStore } from './session'
export { type AppOptions, createApp, createCwaHandler, createCwaNextHandler, cwaExpress, type CwaFetchHandler, payloadKeys } from './server'

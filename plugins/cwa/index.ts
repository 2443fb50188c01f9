/**
 * payload-cwa: the public front door. Everything a Payload app, a plugin
 * author or a server needs, from one module (`payload-cwa`).
 *
 * The core's exports first, then one line per feature: each feature lists
 * what the package exports of it in its own public.ts (with its options'
 * types, so that the declaration merging of every option reaches an app's
 * type checks). test/core/features.unit.test.ts checks that every feature's
 * public.ts is here.
 */
export { cwaPlugin, schemaReady } from './plugin.js'
export { type ComponentDeclaration, defineComponent, definePageData, type PageDataDeclaration } from './core/define.js'
export {
  checkOptionKeys,
  type CwaPluginOptions,
  type ResolvedCwaOptions,
  resolveOptions,
  ROLE_ADMIN,
  ROLE_SUPER_ADMIN,
  ROLE_USER,
  type SecurityExpression,
} from './options.js'
export { adminOnly } from './core/access.js'
export { getOptions, getRegistry, type Resource, type ResourceRegistry } from './core/registry.js'
export { relationCollection, relationId } from './core/utils/relations.js'
export { closePayload } from './core/utils/closePayload.js'
export { collectionSegment } from './core/utils/naming.js'
export { afterCommit, type AfterCommitCallback, beforeCommit } from './core/transactions/index.js'
export {
  emitWriteEvent,
  onWriteEvent,
  type WriteEvent,
  type WriteEventInput,
  type WriteEventSource,
  type WriteEventType,
  type WriteListener,
} from './core/events/index.js'
export {
  CONFLICT_RETRY_AFTER,
  DATABASE_RETRY_AFTER,
  isDatabaseUnavailable,
  isTransientConflict,
} from './core/utils/databaseUnavailable.js'
export type {
  AuthenticationRequest,
  FormatHooks,
  HydraExtension,
  JsonLdObject,
  RequestHooks,
  ResponseInfo,
} from './hydra/extension.js'
export type { OutputProfile, ProfileScope } from './hydra/profile.js'
// A handler returns records, never normalized JSON-LD: a record inside a node's data is embedded, the pipeline normalizes it.
export { embedCollection, embedItem, type CollectionAnswer, type ItemAnswer } from './hydra/embedded.js'
export type {
  ApiRequest,
  CachePolicy,
  Endpoint,
  EndpointDoc,
  EndpointResult,
  EndpointSecurity,
  HttpMethod,
  IsGranted,
  JsonLdOutput,
  SecurityRule,
} from './hydra/endpoint.js'
// An endpoint's body declared once: checked by the pipeline, typed for the handler, documented (hydra/input.ts).
export { withInput } from './hydra/endpoint.js'
export { input, type InputNode, type InputOf } from './hydra/input.js'
export { accessDenied, denyAccessUnlessGranted } from './hydra/security.js'
// A handler refuses what it was sent by throwing these: the pipeline answers them as Hydra errors (400, 404, 422...).
export { badRequest, HttpError, notFound, type Violation, violation, ViolationError } from './hydra/errors.js'
export type { CwaFeature, FeatureOptions } from './hydra/feature.js'
export type { KeySchema, OptionKeys } from './core/optionKeys.js'
// Options declared once (a feature of your own may declare its options as the built-in ones do).
export { defineOptions, group, option, type OptionsInput, type OptionsResolved } from './core/defineOptions.js'
export type { OpenApiDocument, OpenApiKit, Schema } from './hydra/docs/openapi/kit.js'
export type { PropertyDescription } from './hydra/docs/openapi/propertyDescription.js'
export type { Doc, ItemStore } from './hydra/itemStore.js'
export type { HydraContext } from './hydra/context.js'
// The commands' options (commands.*: how the operator commands start), added to CwaPluginOptions like a feature's.
export type { CommandEnvironment, CommandsOptions } from './core/commands/options.js'
export {
  createCwaHandler,
  createCwaNextHandler,
  type CwaFetchHandler,
  type CwaNextRouteHandlers,
  payloadKeys,
} from './server/index.js'

// The features, one line each (features/<feature>/public.ts).
export * from './session/public.js'
export * from './features/admin/public.js'
export * from './features/adminTitles/public.js'
export * from './features/collectionComponent/public.js'
export * from './features/compat/public.js'
export * from './features/forms/public.js'
export * from './features/frontEnd/public.js'
export * from './features/httpCache/public.js'
export * from './features/orphans/public.js'
export * from './features/publishable/public.js'
export * from './features/readModel/public.js'
export * from './features/realtime/public.js'
export * from './features/routes/public.js'
export * from './features/uploads/public.js'
export * from './features/users/public.js'

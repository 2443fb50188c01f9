/**
 * payload-cwa: the public front door. Everything a Payload app, a plugin
 * author or a server needs, from one module (`payload-cwa`).
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
export { DATABASE_RETRY_AFTER, isDatabaseUnavailable } from './core/utils/databaseUnavailable.js'
export {
  choice,
  custom,
  defineFormType,
  email,
  length,
  notBlank,
  persistSubmission,
  purgeFormCache,
  range,
  regex,
  type FormCachePurgeResult,
} from './features/forms/index.js'
export type * from './features/forms/types.js'
export { isPublished, PUBLISHABLE_TWIN_LINK, publishableOf, publicationState } from './features/publishable/index.js'
export { ADMIN_TITLE_FIELD, type AdminTitleFunction, refreshAdminTitles } from './features/adminTitles/index.js'
export { localStorage, readStoredFile, recordFiles, s3Storage, uploadFieldsOf } from './features/uploads/index.js'
export type {
  DynamicFilters,
  FileInfo,
  RecordFile,
  UploadFieldNames,
  ImageFilter,
  StorageAdapter,
  StorageConfig,
  UploadableDeclaration,
  UploadableField,
  UploadsPluginOptions,
  UrlGenerator,
} from './features/uploads/index.js'
export { type RouteGenerator, slugRouteGenerator } from './features/routes/index.js'
export { PurgeFailed, purgeHttpCache, purgeRenderedHtml } from './features/httpCache/index.js'
export { closeEmbeddedHub, EmbeddedHubRefused, startEmbeddedHub } from './features/realtime/index.js'
export {
  emptyStore as emptyReadModel,
  READ_MODEL_HEADER,
  type ReadModelOptions,
  storeSize as readModelSize,
} from './features/readModel/index.js'
export {
  deleteOrphans,
  InUseError,
  loadReport,
  ORPHAN_SCAN_TASK,
  type OrphanDeleteResult,
  type OrphanReport,
  type OrphanedResourcesOptions,
  refreshReport,
  scanAndNotify,
  type ScanAndNotifyResult,
  scanOrphans,
} from './features/orphans/index.js'
export type { AuthenticationRequest, HydraExtension, JsonLdObject, ResponseInfo } from './hydra/extension.js'
export type { ApiRequest, Endpoint, EndpointDoc, EndpointResult, HttpMethod } from './hydra/endpoint.js'
export type { CwaFeature } from './hydra/feature.js'
export type { OpenApiDocument, OpenApiKit, Schema } from './hydra/docs/openapi/kit.js'
export type { PropertyDescription } from './hydra/docs/openapi/propertyDescription.js'
export type { Doc, ItemStore } from './hydra/itemStore.js'
export type { HydraContext } from './hydra/context.js'
export { type JwtKeys, loadJwtKeys, RefreshTokenStore } from './session/index.js'
export type { CommandEnvironment, CommandsOptions } from './commands/options.js'
export {
  createCwaHandler,
  createCwaNextHandler,
  type CwaFetchHandler,
  type CwaNextRouteHandlers,
  payloadKeys,
} from './server/index.js'

// The features add their options to CwaPluginOptions (and their declarations to the type metadata) by declaration
// merging: these references make the compiled .d.ts graph load every one of them, so an app type-checks its options.
export type {} from './features/admin/options.js'
export type {} from './features/adminTitles/derive.js'
export type {} from './features/collection/options.js'
export type {} from './features/compat/options.js'
export type {} from './features/forms/options.js'
export type {} from './features/frontEnd/options.js'
export type {} from './features/httpCache/options.js'
export type {} from './features/orphans/options.js'
export type {} from './features/publishable/config.js'
export type {} from './features/publishable/options.js'
export type {} from './features/realtime/options.js'
export type {} from './features/routes/options.js'
export type {} from './features/uploads/options.js'
export type {} from './features/users/options.js'
export type {} from './session/options.js'
export type {} from './commands/options.js'

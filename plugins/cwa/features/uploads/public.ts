/** The uploads feature's share of the package's front door (index.ts re-exports it). */
export { localStorage } from './storage/local.js'
export { s3Storage } from './storage/s3.js'
export type { StorageAdapter } from './storage/adapter.js'
export { readStoredFile, type RecordFile, recordFiles, type UploadFieldNames, uploadFieldsOf } from './export.js'
export type { FileInfo } from './info.js'
// Its option and declaration types (options.ts adds `uploads` to the options and `uploadable` to the declarations).
export type {
  DynamicFilters,
  ImageFilter,
  StorageConfig,
  UploadableDeclaration,
  UploadableField,
  UploadsPluginOptions,
  UrlGenerator,
} from './options.js'

/**
 * File uploads: `uploadable` file fields on component types, storage
 * adapters behind one interface (local, s3), image variants (sharp), the
 * upload and download endpoints and `_metadata.mediaObjects`.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { applyUploadable } from './config.js'
import { uploadsExtension } from './extension.js'
import { uploadedFilesCollection } from './info.js'

export type {
  DynamicFilters,
  ImageFilter,
  StorageConfig,
  UploadableDeclaration,
  UploadableField,
  UploadsPluginOptions,
  UrlGenerator,
} from './options.js'
export type { StorageAdapter } from './storage/adapter.js'
export { localStorage } from './storage/local.js'
export { s3Storage } from './storage/s3.js'
export { uploadsExtension } from './extension.js'
export { readStoredFile, type RecordFile, recordFiles, type UploadFieldNames, uploadFieldsOf } from './export.js'
export type { FileInfo } from './info.js'

export const uploadsFeature: CwaFeature = {
  name: 'uploads',
  collections: (ctx) => [uploadedFilesCollection(ctx)],
  completeCollection: applyUploadable,
  extension: uploadsExtension,
}

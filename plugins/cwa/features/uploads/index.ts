/**
 * File uploads: `uploadable` file fields on component types, storage
 * adapters behind one interface (local, s3), image variants (sharp), the
 * upload and download endpoints and `_metadata.mediaObjects`.
 */
import type { CwaFeature } from '../../hydra/feature'
import { applyUploadable } from './config'
import { uploadsExtension } from './extension'
import { uploadedFilesCollection } from './info'

export type { DynamicFilters, ImageFilter, StorageConfig, UploadableDeclaration, UploadableField, UploadsPluginOptions, UrlGenerator } from './options'
export type { StorageAdapter } from './storage/adapter'
export { localStorage } from './storage/local'
export { s3Storage } from './storage/s3'
export { uploadsExtension } from './extension'
export { readStoredFile, type RecordFile, recordFiles, type UploadFieldNames, uploadFieldsOf } from './export'
export type { FileInfo } from './info'

export const uploadsFeature: CwaFeature = {
  name: 'uploads',
  collections: (ctx) => [uploadedFilesCollection(ctx)],
  completeCollection: applyUploadable,
  extension: uploadsExtension,
}

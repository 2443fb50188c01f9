/**
 * File uploads: `uploadable` file fields on component types, storage
 * adapters behind one interface (local, s3), image variants (sharp), the
 * upload and download endpoints and `_metadata.mediaObjects`.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { applyUploadable } from './config.js'
import { uploadsExtension } from './extension.js'
import { uploadedFilesCollection } from './info.js'
import { uploadsOptions } from './options.js'

export { uploadsExtension } from './extension.js'
/** For the fixtures feature's generator: a record's stored files, read back. */
export { readStoredFile, recordFiles, uploadFieldsOf } from './export.js'

export const uploadsFeature = {
  name: 'uploads',
  // Its requiredOnPublish checks join the publish validation that publishable resolves on each type.
  after: ['publishable'],
  options: uploadsOptions,
  collections: (ctx) => [uploadedFilesCollection(ctx)],
  completeCollection: applyUploadable,
  extension: uploadsExtension,
} satisfies CwaFeature

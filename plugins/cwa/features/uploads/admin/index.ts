/** The uploads feature's admin components, as the admin's import map names them (payload-cwa/admin#Name). */
export { FileUploadField } from './FileUploadField.js'
export { UploadThumbnailCell } from './UploadThumbnailCell.js'

import { defineComponent } from 'payload-cwa'
import { heading, image, navigationLink, richText } from 'payload-cwa/content'

/**
 * Reference site component types (reference-deployment.md, "Component types"): the content types in the box
 * (`payload-cwa/content`) as they come, and a file download of the site's own.
 */

export { imageTitle } from 'payload-cwa/content'

export const HtmlContent = richText()

export const Image = image()

export const NavigationLink = navigationLink()

export const Title = heading()

export const FileDownload = defineComponent({
  shortName: 'FileDownload',
  adminIcon: 'file',
  publishable: true,
  explicitAllowOnly: true,
  collection: {
    labels: { singular: 'File download', plural: 'File downloads' },
    admin: { description: 'A file visitors download, with a preview image.' },
  },
  uploadable: {
    file: { adapter: 'local', urlGenerator: 'api', maxSize: '20M', property: 'filename' },
    preview: { adapter: 'local', imagineFilters: ['thumbnail'], requiredOnPublish: true, property: 'previewFilename' },
  },
  fields: [
    { name: 'filename', type: 'text', admin: { readOnly: true } },
    { name: 'previewFilename', type: 'text', admin: { readOnly: true } },
  ],
})

export const siteComponents = [HtmlContent, Image, NavigationLink, Title, FileDownload]

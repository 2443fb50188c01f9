/**
 * 'payload-cwa/content': content types in the box, opt-in and importable one by one. Each is a function returning
 * the collection (a defineComponent / definePageData type), with options over its defaults (short name, path
 * segment, labels, publishing...; its fields are its own): rich text (Lexical in the admin, sanitized `html` on
 * the API), image (variants, alt), heading, navigation link, and a page data example (an article).
 *
 *   import { heading, image, navigationLink, richText } from 'payload-cwa/content'
 *   collections: [richText(), image(), heading(), navigationLink()]
 */
export { article } from './content/article.js'
export type { ComponentTypeOptions, PageDataTypeOptions } from './content/declare.js'
export { heading } from './content/heading.js'
export { image, imageTitle } from './content/image.js'
export { navigationLink } from './content/navigationLink.js'
export { richText } from './content/richText.js'
export {
  fillMissingEditorStates,
  htmlToEditorState,
  loadRichTextConverters,
  openConversionWindows,
} from './content/richTextSync.js'
export { sanitizeHtml } from './content/sanitizeHtml.js'

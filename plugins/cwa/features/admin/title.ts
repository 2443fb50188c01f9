import { dataFields, type Resource } from '../../core/registry.js'
import { firstWords, plainText } from '../adminTitles/index.js'

/** Base fields every component has: never a title. */
const NOT_TITLES = new Set(['uiComponent', 'uiClassNames', 'publishedAt', 'filename', 'previewFilename', 'adminTitle'])

/** Markup out (a word half in bold stays one word), whitespace folded, cut at 60 characters on a word. */
export const plainTitle = (value: string): string => firstWords(plainText(value))

/**
 * The one place the page builder (and the admin's other views) name a
 * component. A record with a `title` (the stored title column, once every
 * component carries one) is named by it; until then the first non-empty
 * text property of its type (a Title's text, an HtmlContent's html, a
 * link's label), else its type and a short id.
 */
export function componentTitle(resource: Resource, doc: Record<string, unknown>): string {
  if (typeof doc.title === 'string' && doc.title.trim()) return plainTitle(doc.title)
  // The admin title the adminTitles feature stores (a type's own adminTitle: an image's file name, not its alt text).
  if (typeof doc.adminTitle === 'string' && doc.adminTitle.trim()) return plainTitle(doc.adminTitle)
  for (const field of dataFields(resource.collection.fields)) {
    if (NOT_TITLES.has(field.name)) continue
    if (field.type !== 'text' && field.type !== 'textarea' && field.type !== 'code' && field.type !== 'email') continue
    const value = doc[field.name]
    if (typeof value === 'string' && plainTitle(value)) return plainTitle(value)
  }
  return `${resource.meta.shortName} ${String(doc.id ?? '').slice(0, 8)}`
}

import { dataFields, type Resource } from '../../core/registry.js'

/** Base fields every component has: never a title. */
const NOT_TITLES = new Set(['uiComponent', 'uiClassNames', 'publishedAt', 'filename', 'previewFilename', 'adminTitle'])

const MAX = 60

/** Markup out, whitespace folded, cut at MAX characters on a word. */
function plain(value: string): string {
  const text = value
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (text.length <= MAX) return text
  const cut = text.slice(0, MAX)
  return `${cut.slice(0, cut.lastIndexOf(' ') > 20 ? cut.lastIndexOf(' ') : MAX)}…`
}

/**
 * The one place the page builder (and the admin's other views) name a
 * component. A record with a `title` (the stored title column, once every
 * component carries one) is named by it; until then the first non-empty
 * text property of its type (a Title's text, an HtmlContent's html, a
 * link's label), else its type and a short id.
 */
export function componentTitle(resource: Resource, doc: Record<string, unknown>): string {
  if (typeof doc.title === 'string' && doc.title.trim()) return plain(doc.title)
  // The admin title the adminTitles feature stores (a type's own adminTitle: an image's file name, not its alt text).
  if (typeof doc.adminTitle === 'string' && doc.adminTitle.trim()) return plain(doc.adminTitle)
  for (const field of dataFields(resource.collection.fields)) {
    if (NOT_TITLES.has(field.name)) continue
    if (field.type !== 'text' && field.type !== 'textarea' && field.type !== 'code' && field.type !== 'email') continue
    const value = doc[field.name]
    if (typeof value === 'string' && plain(value)) return plain(value)
  }
  return `${resource.meta.shortName} ${String(doc.id ?? '').slice(0, 8)}`
}

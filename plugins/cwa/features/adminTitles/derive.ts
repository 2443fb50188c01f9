import type { Field } from 'payload'
import type { CwaResourceMeta } from '../../core/types.js'

/** A component's title from its content, as stored in `adminTitle` (null: the fallback, type + short id, applies). */
export type AdminTitleFunction = (doc: Record<string, unknown>) => string | null | undefined

/** How long a derived title may be (the first words, cut at a word boundary). */
export const TITLE_LENGTH = 60

/** Field types whose value can name a record. */
const TEXT_TYPES = new Set(['text', 'textarea', 'email', 'code'])

/** Tags inside a line of text (bold, a link...): they part no words, unlike a paragraph's or a line break. */
const INLINE_TAG = /<\/?(?:a|abbr|b|code|em|i|mark|s|small|span|strong|sub|sup|u)\b[^>]*>/gi

/**
 * Text of a value that may be HTML: tags dropped (a word half in bold stays one word), entities of the common kind
 * decoded, white space collapsed.
 */
export function plainText(value: unknown): string {
  if (typeof value !== 'string') return ''
  return value
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(INLINE_TAG, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The first words of a text, at most TITLE_LENGTH characters, with an ellipsis when cut. */
export function firstWords(text: string, length = TITLE_LENGTH): string {
  if (text.length <= length) return text
  const cut = text.slice(0, length - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > length / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/**
 * The default title of a component: the first non-empty text field of its
 * own (declared) fields, in declaration order, as plain text (a Title's
 * text, HtmlContent's html, a link's label, an image's file name). Base
 * fields (uiComponent, uiClassNames) never name a record.
 */
export function defaultTitle(ownFields: Field[]): AdminTitleFunction {
  const names = ownFields
    .filter(
      (f): f is Field & { name: string } =>
        'name' in f && TEXT_TYPES.has(f.type) && !('hasMany' in f && f.hasMany) && !('virtual' in f && f.virtual),
    )
    .map((f) => f.name)
  return (doc) => {
    for (const name of names) {
      const text = plainText(doc[name])
      if (text) return text
    }
    return null
  }
}

/** The title a declared type asked for (defineComponent's adminTitle), else the default. */
export function titleFunction(meta: CwaResourceMeta, ownFields: Field[]): AdminTitleFunction {
  const declared = (meta as { adminTitle?: AdminTitleFunction }).adminTitle
  return declared ?? defaultTitle(ownFields)
}

/** What a record is called when its content names nothing (or must not be shown): its type and the start of its id. */
export function fallbackTitle(label: string, id: unknown): string {
  return id ? `${label} ${String(id).slice(0, 8)}` : label
}

export function normalizeTitle(value: string | null | undefined): string | null {
  const text = plainText(value ?? '')
  return text ? firstWords(text) : null
}

declare module '../../core/types.js' {
  interface FeatureDeclarations {
    /**
     * The component's title in the admin panel (lists, pickers, search), from
     * the record as it will be saved. Default: its first non-empty text field
     * as plain text; null or empty falls back to type and short id.
     */
    adminTitle?: AdminTitleFunction
  }
}

import { Window } from 'happy-dom'
import type { CollectionBeforeChangeHook, Field, Payload, PayloadRequest, SanitizedCollectionConfig } from 'payload'
import { getRegistry, publishableOf, relationId } from 'payload-cwa'
import { sanitizeHtml } from './sanitizeHtml'

/**
 * HtmlContent keeps two forms of one text: `content`, the editor state the
 * admin panel edits with Lexical, and `html`, the string the contract serves
 * (and the CWA front end edits inline through the JSON-LD API). Whichever
 * side a save changed is the source, and the other is derived from it, so
 * neither loses the other's edits:
 *
 * - `html` changed (a JSON-LD or REST write): stored sanitized, and converted
 *   to an editor state with Lexical's HTML importer on a happy-dom document;
 * - else `content` changed (the admin panel): converted to HTML with Lexical's
 *   HTML converter, then sanitized.
 *
 * Editor state and HTML share no identity: a round trip keeps the text, its
 * structure and the formats Lexical knows (headings, lists, links, bold...),
 * not attributes Lexical has no node for.
 */
export const CONTENT_FIELD = 'content'
export const HTML_FIELD = 'html'

type EditorState = { root: { children: unknown[] } } & Record<string, unknown>

/** Lexical's HTML importer expects a JSDOM-like constructor; happy-dom's Window is one in all but name. */
class HappyDom {
  window: Window
  constructor(html: string) {
    this.window = new Window()
    this.window.document.body.innerHTML = html
  }
}

function editorConfigOf(collection: SanitizedCollectionConfig): unknown {
  const field = collection.fields.find((f: Field) => 'name' in f && f.name === CONTENT_FIELD) as { editor?: { editorConfig?: unknown } } | undefined
  if (!field?.editor?.editorConfig) throw new Error(`${collection.slug}.${CONTENT_FIELD} has no Lexical editor`)
  return field.editor.editorConfig
}

export async function htmlToEditorState(html: string, collection: SanitizedCollectionConfig): Promise<EditorState> {
  const { convertHTMLToLexical } = await import('@payloadcms/richtext-lexical')
  const editorConfig = editorConfigOf(collection) as Parameters<typeof convertHTMLToLexical>[0]['editorConfig']
  return convertHTMLToLexical({ editorConfig, html, JSDOM: HappyDom as never }) as unknown as EditorState
}

export async function editorStateToHtml(state: EditorState): Promise<string> {
  const { convertLexicalToHTML } = await import('@payloadcms/richtext-lexical/html')
  return sanitizeHtml(convertLexicalToHTML({ data: state as never, disableContainer: true }))
}

const isEmptyState = (state: unknown): boolean => !state || !Array.isArray((state as EditorState).root?.children) || (state as EditorState).root.children.length === 0

/**
 * A draft created for an edit of a live record starts as that record's copy
 * with the edit applied: compared with nothing, its (unchanged) html would
 * look like the side that changed and overwrite the editor's edit. Its
 * "before" is the live twin (the publishable feature's twin link).
 */
async function baselineOf(data: Record<string, unknown>, originalDoc: unknown, req: PayloadRequest, collection: SanitizedCollectionConfig): Promise<Record<string, unknown>> {
  // (Payload hands a create an empty originalDoc.)
  if (originalDoc && typeof originalDoc === 'object' && 'id' in originalDoc) return originalDoc as Record<string, unknown>
  const resource = getRegistry(req.payload.config).bySlug(collection.slug)
  const twinField = resource ? publishableOf(resource)?.publishedResource : undefined
  const twin = twinField ? relationId(data[twinField]) : null
  if (!twin) return {}
  const live = await req.payload.find({ collection: collection.slug as never, where: { id: { equals: twin } }, depth: 0, limit: 1, pagination: false, overrideAccess: true, req })
  return (live.docs[0] as Record<string, unknown> | undefined) ?? {}
}


export const htmlContentSync: CollectionBeforeChangeHook = async ({ data, originalDoc, collection, req }) => {
  const before = await baselineOf(data, originalDoc, req, collection)
  const htmlChanged = HTML_FIELD in data && (data[HTML_FIELD] ?? null) !== (before[HTML_FIELD] ?? null)
  if (htmlChanged) {
    const html = typeof data[HTML_FIELD] === 'string' ? sanitizeHtml(data[HTML_FIELD]) : null
    data[HTML_FIELD] = html
    data[CONTENT_FIELD] = html ? await htmlToEditorState(html, collection) : null
    return data
  }
  const contentChanged = CONTENT_FIELD in data && JSON.stringify(data[CONTENT_FIELD] ?? null) !== JSON.stringify(before[CONTENT_FIELD] ?? null)
  if (contentChanged) {
    const state = data[CONTENT_FIELD] as EditorState | null
    data[HTML_FIELD] = isEmptyState(state) ? null : await editorStateToHtml(state!)
  }
  return data
}

/**
 * Fills the editor state of every HtmlContent stored with html only (rows
 * from before the editor, or written by SQL): the migration that added
 * `content` runs it. Written through the database adapter, in `req`'s
 * transaction: the html stays as stored, and no hook or write event runs.
 */
export async function fillMissingEditorStates(payload: Payload, req: PayloadRequest, collection = 'html_contents'): Promise<number> {
  const config = payload.collections[collection as never]?.config
  if (!config) return 0
  const { docs } = await payload.find({ collection: collection as never, depth: 0, limit: 0, pagination: false, req, where: { and: [{ [HTML_FIELD]: { exists: true } }, { [CONTENT_FIELD]: { exists: false } }] } as never })
  let filled = 0
  for (const doc of docs as Array<Record<string, unknown>>) {
    if (typeof doc[HTML_FIELD] !== 'string' || !doc[HTML_FIELD] || doc[CONTENT_FIELD]) continue
    await payload.db.updateOne({ collection, id: String(doc.id), data: { [CONTENT_FIELD]: await htmlToEditorState(doc[HTML_FIELD] as string, config) }, req })
    filled++
  }
  return filled
}

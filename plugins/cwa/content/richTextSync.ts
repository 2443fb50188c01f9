import type { Window } from 'happy-dom'
import type {
  CollectionBeforeChangeHook,
  CollectionSlug,
  Field,
  Payload,
  PayloadRequest,
  SanitizedCollectionConfig,
  Where,
} from 'payload'
import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import { getRegistry } from '../core/registry.js'
import { relationId } from '../core/utils/relations.js'
import { publishableOf } from '../features/publishable/index.js'
import { happyDom, sanitizeHtml } from './sanitizeHtml.js'

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

type EditorState = SerializedEditorState

function editorConfigOf(collection: SanitizedCollectionConfig): unknown {
  const field = collection.fields.find((f: Field) => 'name' in f && f.name === CONTENT_FIELD) as
    { editor?: { editorConfig?: unknown } } | undefined
  if (!field?.editor?.editorConfig) throw new Error(`${collection.slug}.${CONTENT_FIELD} has no Lexical editor`)
  return field.editor.editorConfig
}

/**
 * Loads what converting html and editor states needs (Lexical's converters,
 * happy-dom): a server calls it at start, so that the first write of a rich
 * text does not load some thousand modules inside its database transaction
 * (under load that took long enough to end the transaction). Commands never
 * call it: they load them only if they convert.
 */
export async function loadRichTextConverters(): Promise<void> {
  await Promise.all([import('@payloadcms/richtext-lexical'), import('@payloadcms/richtext-lexical/html'), happyDom()])
}

const isDocument = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && 'createElement' in value && 'body' in value

/** Windows opened by conversions and not closed yet (0 between conversions; a leak shows here first). */
let openWindows = 0
export const openConversionWindows = () => openWindows

export async function htmlToEditorState(html: string, collection: SanitizedCollectionConfig): Promise<EditorState> {
  const { convertHTMLToLexical } = await import('@payloadcms/richtext-lexical')
  const editorConfig = editorConfigOf(collection) as Parameters<typeof convertHTMLToLexical>[0]['editorConfig']
  const { Window } = await happyDom()
  const opened: Window[] = []
  /** Lexical's HTML importer expects a JSDOM-like constructor; happy-dom's Window is one in all but name. */
  class HappyDom {
    window: { document: Document }
    constructor(source: string) {
      const window = new Window()
      opened.push(window)
      openWindows++
      window.document.body.innerHTML = source
      // happy-dom's Document is a DOM Document in all but its declared class: checked, not cast.
      const document: unknown = window.document
      if (!isDocument(document)) throw new Error('happy-dom gave no document')
      this.window = { document }
    }
  }
  try {
    return convertHTMLToLexical({ editorConfig, html, JSDOM: HappyDom })
  } finally {
    // A window left open is never collected (about 250 KB for every write of an html field).
    for (const window of opened) {
      await window.happyDOM.close()
      openWindows--
    }
  }
}

export async function editorStateToHtml(state: EditorState): Promise<string> {
  const { convertLexicalToHTML } = await import('@payloadcms/richtext-lexical/html')
  return await sanitizeHtml(convertLexicalToHTML({ data: state, disableContainer: true }))
}

const isEmptyState = (state: unknown): boolean =>
  !state || !Array.isArray((state as EditorState).root?.children) || (state as EditorState).root.children.length === 0

type Row = Record<string, unknown>

const sameHtml = (a: unknown, b: unknown) => (a ?? null) === (b ?? null)
/** JSON with its keys sorted: a state read back from the database (jsonb) has its keys in another order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Row).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
const sameState = (a: unknown, b: unknown) => canonical(a) === canonical(b)

/**
 * What the writer may have read: the record written and, for a draft of a
 * live record, that live twin (a write addressed to a live record is
 * redirected to its draft: the writer read the live one). A draft created
 * for such an edit starts as the twin's copy with the edit applied, so the
 * twin is its only "before".
 */
async function baselinesOf(
  data: Row,
  originalDoc: unknown,
  req: PayloadRequest,
  collection: SanitizedCollectionConfig,
): Promise<Row[]> {
  // (Payload hands a create an empty originalDoc.)
  const stored = originalDoc && typeof originalDoc === 'object' && 'id' in originalDoc ? (originalDoc as Row) : null
  const resource = getRegistry(req.payload.config).bySlug(collection.slug)
  const twinField = resource ? publishableOf(resource)?.publishedResource : undefined
  const twin = twinField ? relationId(stored?.[twinField] ?? data[twinField]) : null
  const out = stored ? [stored] : []
  if (twin) {
    const live = await req.payload.find({
      collection: collection.slug,
      where: { id: { equals: twin } },
      depth: 0,
      limit: 1,
      pagination: false,
      overrideAccess: true,
      req,
    })
    if (live.docs[0]) out.push(live.docs[0] as Row)
  }
  return out
}

/**
 * Which side of the pair a write changed, so the other is derived from it
 * and the two never disagree:
 * - only `html` sent and changed (the JSON-LD API, REST): html is the source;
 * - only `content` sent and changed: content is the source;
 * - both sent (the admin's form sends the whole document; a REST client may
 *   echo what it read; a publication hands a draft to its twin): html is the
 *   source when it is new, whether the editor state is one the writer read or
 *   new too; when only the editor state is new it is the source, and the html
 *   sent is replaced by its conversion. A form that loaded a live record and
 *   saves into its draft sends the html it loaded (not new), which must never
 *   overwrite the text just typed (issue 23).
 */
export const richTextSync: CollectionBeforeChangeHook = async ({ data, originalDoc, collection, req }) => {
  // (A create's data may hold a field the client did not send as undefined.)
  const sentHtml = data[HTML_FIELD] !== undefined
  const sentContent = data[CONTENT_FIELD] !== undefined
  if (!sentHtml && !sentContent) return data
  const baselines = await baselinesOf(data, originalDoc, req, collection)
  const stored = baselines[0] ?? {}
  const htmlNew = sentHtml && baselines.every((b) => !sameHtml(data[HTML_FIELD], b[HTML_FIELD]))
  // With nothing before it (a create), an empty editor state is no text of its own.
  const contentNew =
    sentContent &&
    (baselines.length === 0
      ? !isEmptyState(data[CONTENT_FIELD])
      : baselines.every((b) => !sameState(data[CONTENT_FIELD], b[CONTENT_FIELD])))
  let source: 'html' | 'content' | null = null
  if (htmlNew && !contentNew) source = 'html'
  // Both new: a pair copied whole (a publication handing a draft to its twin, a duplicate), where the html may be
  // newer than the state beside it (a publish that sets the html in the same write hands over the draft's html
  // with the state it had): the html is the source, as written (plain text stays plain text).
  else if (htmlNew && contentNew) source = 'html'
  else if (contentNew) source = 'content'
  // Neither new, but not the stored pair (the html of the live twin, the editor state of its draft): one source.
  else if (
    sentHtml &&
    sentContent &&
    (!sameHtml(data[HTML_FIELD], stored[HTML_FIELD]) || !sameState(data[CONTENT_FIELD], stored[CONTENT_FIELD]))
  )
    source = 'content'
  if (source === 'html') {
    const html = typeof data[HTML_FIELD] === 'string' ? await sanitizeHtml(data[HTML_FIELD]) : null
    data[HTML_FIELD] = html
    data[CONTENT_FIELD] = html ? await htmlToEditorState(html, collection) : null
  } else if (source === 'content') {
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
export async function fillMissingEditorStates(
  payload: Payload,
  req: PayloadRequest,
  collection: CollectionSlug = 'html_contents',
): Promise<number> {
  const config = payload.collections[collection]?.config
  if (!config) return 0
  const missing: Where = { and: [{ [HTML_FIELD]: { exists: true } }, { [CONTENT_FIELD]: { exists: false } }] }
  const { docs } = await payload.find({
    collection,
    depth: 0,
    limit: 0,
    pagination: false,
    req,
    where: missing,
  })
  let filled = 0
  for (const doc of docs as Array<Record<string, unknown>>) {
    if (typeof doc[HTML_FIELD] !== 'string' || !doc[HTML_FIELD] || doc[CONTENT_FIELD]) continue
    await payload.db.updateOne({
      collection,
      id: String(doc.id),
      data: { [CONTENT_FIELD]: await htmlToEditorState(doc[HTML_FIELD] as string, config) },
      req,
    })
    filled++
  }
  return filled
}

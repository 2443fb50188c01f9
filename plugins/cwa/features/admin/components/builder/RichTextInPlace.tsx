'use client'
/**
 * A rich text block's text edited in the page builder with the site's own Lexical editor, toolbar included: the
 * same field the drawer shows (the collection's `content`), rendered by Payload in a small form of its own. Its
 * form state comes from Payload's server function (getFormState), so the editor has every feature the config
 * gives it. What the editor typed is handed over as HTML (Lexical's converter, as the server's sync uses): the
 * builder writes `html` through the API (an If-Match edit, a new block), and the server derives the editor state
 * back from it.
 */
import { convertLexicalToHTML } from '@payloadcms/richtext-lexical/html'
import { getNearestEditorFromDOMNode, type SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import {
  Form,
  RenderFields,
  ShimmerEffect,
  useConfig,
  useForm,
  useFormModified,
  useServerFunctions,
} from '@payloadcms/ui'
import type { ClientField, FormState } from 'payload'
import React, { useEffect, useImperativeHandle, useRef, useState } from 'react'

/** The field Lexical edits in a rich text type (plugins/cwa/content/richText.ts). */
const CONTENT = 'content'

/** What the builder asks of the editor when it saves: the text as HTML (null when empty). */
export interface RichTextHandle {
  html: () => string | null
}

const isEmpty = (state: unknown): boolean => {
  const root = (state as SerializedEditorState | null | undefined)?.root
  if (!root || !Array.isArray(root.children)) return true
  const text = (node: unknown): string => {
    const n = node as { text?: string; children?: unknown[] }
    return (n.text ?? '') + (n.children ?? []).map(text).join('')
  }
  return text(root).trim() === '' && !JSON.stringify(root).includes('"type":"upload"')
}

/** The editor state as HTML, as the server's sync converts it (plugins/cwa/content/richTextSync.ts). */
export const stateToHtml = (state: unknown): string | null =>
  isEmpty(state) ? null : convertLexicalToHTML({ data: state as SerializedEditorState, disableContainer: true })

/**
 * Inside the small form: hands the text to the handle and says when it holds unsaved text. The text is read from
 * the editor itself: Payload's field copies it into the form only when the browser is idle (up to 500 ms later, more
 * on a busy machine), and a click on "Add this block" right after the last keystroke must not lose it.
 */
function Bridge({
  handle,
  onDirty,
  container,
}: {
  handle: React.Ref<RichTextHandle>
  onDirty: (dirty: boolean) => void
  container: React.RefObject<HTMLDivElement | null>
}) {
  const { getData } = useForm()
  const modified = useFormModified()
  useImperativeHandle(
    handle,
    () => ({
      html: () => {
        const root = container.current?.querySelector('[data-lexical-editor="true"]')
        const editor = root ? getNearestEditorFromDOMNode(root) : null
        return stateToHtml(editor?.getEditorState().toJSON() ?? getData()[CONTENT])
      },
    }),
    [container, getData],
  )
  useEffect(() => onDirty(modified), [modified, onDirty])
  return null
}

/**
 * The editor for a rich text block: `id` the record an edit changes (its pending draft when it has one), absent for
 * a new block. `onDirty` follows whether it holds text not saved.
 */
export function RichTextInPlace({
  slug,
  id,
  handle,
  onDirty,
  label,
}: {
  slug: string
  id?: string
  handle: React.Ref<RichTextHandle>
  onDirty: (dirty: boolean) => void
  label: string
}) {
  const { getFormState } = useServerFunctions()
  const { config, getEntityConfig } = useConfig()
  const [state, setState] = useState<FormState | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const container = useRef<HTMLDivElement>(null)
  // Unsaved from the first keystroke, not only once the form has the text (when the browser is idle): the editor's
  // own text listener, registered when the editor first gets the focus (Lexical handles input without DOM events).
  const [typed, setTyped] = useState(false)
  const [formModified, setFormModified] = useState(false)
  useEffect(() => onDirty(typed || formModified), [typed, formModified, onDirty])
  const stopListening = useRef<(() => void) | null>(null)
  useEffect(() => () => stopListening.current?.(), [])
  const listen = () => {
    const root = container.current?.querySelector('[data-lexical-editor="true"]')
    const editor = root && !stopListening.current ? getNearestEditorFromDOMNode(root) : null
    if (!root || !editor) return
    const initial = root.textContent ?? ''
    stopListening.current = editor.registerTextContentListener((text) => {
      if (text !== initial) setTyped(true)
    })
  }
  const field = getEntityConfig({ collectionSlug: slug })?.fields.find(
    (f): f is ClientField & { name: string } => 'name' in f && f.name === CONTENT,
  )
  useEffect(() => {
    const abort = new AbortController()
    const load = async () => {
      // The record's editor state as stored (its draft's): Payload's form state is built from the data given.
      let data: Record<string, unknown> = {}
      if (id) {
        const response = await fetch(`${config.serverURL}${config.routes.api}/${slug}/${id}?depth=0&draft=true`, {
          credentials: 'same-origin',
          signal: abort.signal,
        })
        if (!response.ok) throw new Error(`The text could not be loaded (${response.status}).`)
        data = (await response.json()) as Record<string, unknown>
      }
      const { state: loaded } = await getFormState({
        collectionSlug: slug,
        ...(id ? { id } : {}),
        data,
        docPermissions: { fields: true },
        docPreferences: { fields: {} },
        operation: id ? 'update' : 'create',
        renderAllFields: true,
        schemaPath: slug,
        signal: abort.signal,
      })
      if (loaded) setState(loaded)
    }
    load().catch((error: unknown) => {
      if (!abort.signal.aborted) setFailure(error instanceof Error ? error.message : String(error))
    })
    return () => abort.abort()
  }, [config.routes.api, config.serverURL, getFormState, id, slug])

  if (!field) return <p role="alert">This type has no rich text field to edit here: use Edit.</p>
  if (failure) return <p role="alert">{failure}</p>
  if (!state) return <ShimmerEffect height={120} />
  return (
    <div data-testid="rich-text-in-place" aria-label={label} ref={container} onFocus={listen}>
      <Form el="div" fields={[field]} initialState={state}>
        <RenderFields
          fields={[field]}
          forceRender
          parentIndexPath=""
          parentPath=""
          parentSchemaPath={slug}
          permissions={true}
        />
        <Bridge handle={handle} onDirty={setFormModified} container={container} />
      </Form>
    </div>
  )
}

'use client'
import { Button, TextInput } from '@payloadcms/ui'
import React, { useRef, useState } from 'react'
import { ApiError, apiFetch } from '../../../../core/admin/api.js'
import { RichTextInPlace, type RichTextHandle } from './RichTextInPlace.js'
import type { BuilderContext, Component } from './types.js'
import { useUnsavedText } from './unsaved.js'

/** An HTML value as the editor reads it in a message: its text. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()

/** What a save does on the site, said before it: a draft waits for "Publish page"; a block without drafts does not. */
export function LiveNote({
  drafts,
  liveAtOnce,
  adding = false,
}: {
  drafts: boolean
  liveAtOnce: boolean
  adding?: boolean
}) {
  const text = drafts
    ? `${adding ? 'Added' : 'Saved'} as a draft: the site shows it after “Publish page”.`
    : liveAtOnce
      ? `Goes live at once: this type has no drafts, so the site shows it as soon as it is ${adding ? 'added' : 'saved'}.`
      : 'This type has no drafts: it is public with the page.'
  return (
    <p
      data-testid="live-note"
      data-live-at-once={!drafts && liveAtOnce}
      style={{ margin: '6px 0 0', fontSize: 12, color: 'var(--theme-elevation-500)' }}
    >
      {text}
    </p>
  )
}

/** The record an edit of the block changes: its pending draft, else itself. */
const editedId = (c: Component) => (c.pending ? c.pending.split('/').pop()! : c.id)

/**
 * The block's main field, edited where it is (PATCH of the block: a live one's edit goes to its draft); a rich
 * text in the site's Lexical editor. A save over someone else's (412) keeps this text in the box and shows theirs
 * on the row, both at hand.
 */
export function InlineEdit({
  component,
  ctx,
  onDone,
}: {
  component: Component
  ctx: BuilderContext
  onDone: () => void
}) {
  const main = component.main!
  const rich = main.kind === 'html'
  const [value, setValue] = useState(main.value ?? '')
  const [richDirty, setRichDirty] = useState(false)
  const editor = useRef<RichTextHandle>(null)
  const [conflict, setConflict] = useState(false)
  const label = main.kind === 'file' ? 'Alt text' : (main.label ?? main.name)
  useUnsavedText(ctx.unsaved, `inline:${component['@id']}`, rich ? richDirty : value !== (main.value ?? ''))
  const save = async () => {
    let refused = false
    const sent = rich ? (editor.current?.html() ?? null) : value
    const ok = await ctx.write(async () => {
      try {
        await apiFetch(component['@id'], { method: 'PATCH', body: { [main.name]: sent }, ifMatch: main.version })
      } catch (error) {
        // Someone saved this block since the builder showed it: theirs stays (the view reloads), this text stays.
        if (!(error instanceof ApiError) || error.status !== 412) throw error
        refused = true
      }
    })
    setConflict(refused)
    if (ok && !refused) onDone()
  }
  const theirs = rich ? textOf(main.value ?? '') : (main.value ?? '')
  return (
    <div style={{ width: '100%', marginTop: 6 }} data-testid="inline-edit">
      <div style={{ display: 'flex', gap: 8, alignItems: 'flex-end', flexWrap: rich ? 'wrap' : undefined }}>
        <div style={{ flex: 1, minWidth: rich ? '100%' : undefined }}>
          {rich ? (
            <RichTextInPlace
              slug={component.slug}
              id={editedId(component)}
              handle={editor}
              onDirty={setRichDirty}
              label={label}
            />
          ) : (
            <TextInput
              path={`cwaInline_${component.id}`}
              label={label}
              value={value}
              onChange={(e: React.ChangeEvent<HTMLInputElement>) => setValue(e.target.value)}
            />
          )}
        </div>
        <Button buttonStyle="primary" size="small" margin={false} onClick={() => void save()}>
          {conflict ? 'Save mine' : 'Save'}
        </Button>
        <Button buttonStyle="subtle" size="small" margin={false} onClick={onDone}>
          Cancel
        </Button>
      </div>
      <LiveNote drafts={component.drafts !== false} liveAtOnce={ctx.liveAtOnce} />
      {conflict && (
        <p role="alert" data-testid="inline-conflict" style={{ margin: '6px 0 0', fontSize: 13 }}>
          Someone else saved this block since you opened it. Theirs: “{theirs}”. Yours is still in the box: “Save mine”
          replaces theirs, Cancel keeps theirs.
        </p>
      )}
    </div>
  )
}

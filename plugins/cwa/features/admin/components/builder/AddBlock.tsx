'use client'
/**
 * Adding a block to a group, with its content, in one step: pick a type
 * (one button per type the group allows), type its main field (or choose
 * its image and alt text; a rich text in the site's Lexical editor, toolbar
 * included), "Add this block" (Lexical names its own block handle "Add
 * block"): POST /_/page_builder/blocks creates the component and places it
 * at the group's end in one transaction. An
 * image is resized in the browser first (the contract's limits) and sent as
 * a named data URI, so its title is its file name. "All fields…" opens
 * Payload's create drawer for the type instead; the block is placed on save.
 */
import { Button, TextareaInput, TextInput, useDocumentDrawer } from '@payloadcms/ui'
import React, { useRef, useState } from 'react'
import { LiveNote } from './InlineEdit.js'
import { RichTextInPlace, type RichTextHandle } from './RichTextInPlace.js'
import { RoutePicker } from './RoutePicker.js'
import { useUnsavedText } from './unsaved.js'
import { apiFetch } from '../../../../core/admin/api.js'
import { namedDataUri } from '../../../../core/admin/dataUri.js'
import { resizeForUpload } from '../../../../core/admin/resize.js'
import { useOneAtATime } from '../../../../core/admin/useOneAtATime.js'
import { TypeIcon, TypeName } from '../../../../core/admin/TypeIcon.js'
import type { Addable, BuilderContext, Group } from './types.js'

function FullFormButton({ type, group, ctx }: { type: Addable; group: Group; ctx: BuilderContext }) {
  const [Drawer, , { openDrawer, closeDrawer }] = useDocumentDrawer({ collectionSlug: type.slug })
  return (
    <>
      <Button buttonStyle="secondary" size="small" margin={false} onClick={openDrawer}>
        All fields…
      </Button>
      <Drawer
        onSave={async ({ doc, operation }) => {
          if (operation !== 'create') return
          closeDrawer()
          await ctx.write(() =>
            apiFetch(`${ctx.apiPrefix}/_/page_builder/positions`, {
              body: { componentGroup: group['@id'], component: `${type['@id']}/${doc.id}` },
            }),
          )
        }}
      />
    </>
  )
}

function AddForm({
  type,
  group,
  ctx,
  onDone,
}: {
  type: Addable
  group: Group
  ctx: BuilderContext
  onDone: () => void
}) {
  const main = type.main
  const [text, setText] = useState('')
  const [alt, setAlt] = useState('')
  const [link, setLink] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const editor = useRef<RichTextHandle>(null)
  const [richDirty, setRichDirty] = useState(false)
  const path = `cwaAdd_${group.id}_${type.slug}`
  useUnsavedText(ctx.unsaved, path, text !== '' || alt !== '' || link !== '' || file !== null || richDirty)

  // Preparing an image takes a moment before the write: a second click meanwhile would add the block twice.
  const add = useOneAtATime(async () => {
    const data: Record<string, string> = {}
    if (main?.kind === 'file') {
      if (!file) return setNote('Choose a file first.')
      const { file: sent, resized } = await resizeForUpload(file)
      data[main.name] = await namedDataUri(sent)
      if (main.alt && alt) data[main.alt.name] = alt
      if (resized) setNote(`Resized in the browser from ${resized.from.join(' × ')} to ${resized.to.join(' × ')} px.`)
    } else if (main?.kind === 'html') {
      const html = editor.current?.html() ?? null
      if (html) data[main.name] = html
    } else if (main && text) data[main.name] = text
    if (main?.link && link) data[main.link.name] = link
    const ok = await ctx.write(() =>
      apiFetch(`${ctx.apiPrefix}/_/page_builder/blocks`, {
        body: { componentGroup: group['@id'], type: type['@id'], data },
      }),
    )
    if (ok) onDone()
  })

  return (
    <div
      data-testid="add-block-form"
      style={{
        border: '1px dashed var(--theme-elevation-250)',
        borderRadius: 4,
        padding: 12,
        marginTop: 8,
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
      }}
    >
      <strong style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        <TypeIcon icon={type.icon} /> New {type.label}
      </strong>
      {main?.kind === 'file' && (
        <>
          <input
            ref={input}
            type="file"
            accept="image/*"
            aria-label="Image file"
            style={{ display: 'none' }}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null)
              setNote(null)
            }}
          />
          <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
            <Button buttonStyle="secondary" size="small" margin={false} onClick={() => input.current?.click()}>
              {file ? 'Choose another file' : 'Choose a file'}
            </Button>
            <span data-testid="chosen-file">{file ? file.name : 'No file chosen.'}</span>
          </div>
          {main.alt && (
            <TextInput
              path={`${path}_alt`}
              label={main.alt.label}
              value={alt}
              onChange={(e: React.ChangeEvent<HTMLInputElement>) => setAlt(e.target.value)}
            />
          )}
        </>
      )}
      {main?.kind === 'html' && (
        <RichTextInPlace slug={type.slug} handle={editor} onDirty={setRichDirty} label={main.label} />
      )}
      {main?.kind === 'textarea' && (
        <TextareaInput path={path} label={main.label} value={text} onChange={(e) => setText(e.target.value)} />
      )}
      {main?.kind === 'text' && (
        <TextInput
          path={path}
          label={main.label}
          value={text}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => setText(e.target.value)}
        />
      )}
      {main?.link && (
        <RoutePicker
          apiPrefix={ctx.apiPrefix}
          label={`${main.link.label}: the page it leads to`}
          inputId={`${path}_link`}
          value={link}
          onChange={setLink}
        />
      )}
      <LiveNote drafts={type.drafts} liveAtOnce={ctx.liveAtOnce} adding />
      {note && <span role="status">{note}</span>}
      <div style={{ display: 'flex', gap: 8 }}>
        <Button buttonStyle="primary" size="small" margin={false} onClick={() => void add()}>
          Add this block
        </Button>
        <FullFormButton type={type} group={group} ctx={ctx} />
        <Button buttonStyle="subtle" size="small" margin={false} onClick={onDone}>
          Cancel
        </Button>
      </div>
    </div>
  )
}

export function AddBlock({ group, ctx }: { group: Group; ctx: BuilderContext }) {
  const [chosen, setChosen] = useState<string | null>(null)
  const type = group.addable.find((t) => t.slug === chosen)
  if (group.addable.length === 0) return null
  return (
    <div data-testid="add-block">
      <div
        style={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}
        role="group"
        aria-label="Add a block"
      >
        <span style={{ fontSize: 12, color: 'var(--theme-elevation-500)' }}>Add:</span>
        {group.addable.map((t) => (
          <Button
            key={t.slug}
            buttonStyle={chosen === t.slug ? 'primary' : 'pill'}
            size="small"
            margin={false}
            icon={['plus']}
            iconPosition="left"
            onClick={() => setChosen(chosen === t.slug ? null : t.slug)}
          >
            <TypeName icon={t.icon} label={t.label} />
          </Button>
        ))}
      </div>
      {type && <AddForm key={type.slug} type={type} group={group} ctx={ctx} onDone={() => setChosen(null)} />}
    </div>
  )
}

'use client'
/**
 * One position of a group in the page builder: its component's title (a
 * link to it: to its pending draft when it has one, which is what an edit
 * changes), type and state; its main field edited in place (a Title's
 * title, a link's label, an image's alt text, a rich text in Lexical);
 * every field in Payload's drawer, which returns here on save; moving and
 * removing in the row's menu (they go live at once on a public page, and say
 * so).
 */
import { Button, useDocumentDrawer } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'
import { InlineEdit } from './InlineEdit.js'
import { ConfirmRemove, RowMenu } from './RowMenu.js'
import { apiFetch } from '../../../../core/admin/api.js'
import { TypeName } from '../../../../core/admin/TypeIcon.js'
import { BlockStatePill } from './BlockState.js'
import type { BuilderContext, Component, Position } from './types.js'

const small: React.CSSProperties = { fontSize: 12, color: 'var(--theme-elevation-500)' }
const idOf = (iri: string) => iri.split('/').pop()!

/** The record an edit of the block changes: its pending draft, else itself. */
const editedId = (c: Component) => (c.pending ? idOf(c.pending) : c.id)

export function ComponentLink({ component, adminRoute }: { component: Component; adminRoute: string }) {
  return (
    <a
      href={`${adminRoute}/collections/${component.slug}/${editedId(component)}`}
      title="Open the component"
      data-testid="component-link"
    >
      {component.title}
    </a>
  )
}

/** An uploadable block's thumbnail (its thumbnail variant, else the original), read from the API. */
function Thumbnail({ component }: { component: Component }) {
  const [src, setSrc] = useState<string | null>(null)
  const property = component.main?.file
  useEffect(() => {
    if (!property) return
    let live = true
    apiFetch<{
      _metadata?: {
        mediaObjects?: Record<string, Array<{ contentUrl: string; imagineFilter: string | null; mimeType: string }>>
      }
    }>(component.pending ?? component['@id'])
      .then((doc) => {
        const media = doc._metadata?.mediaObjects?.[property] ?? []
        const pick =
          media.find((m) => m.imagineFilter === 'thumbnail') ?? media.find((m) => m.mimeType.startsWith('image/'))
        if (live) setSrc(pick?.contentUrl ?? null)
      })
      .catch(() => undefined) // No thumbnail: the title still names the block.
    return () => {
      live = false
    }
  }, [component, property])
  if (!property) return null
  return src ? (
    <img
      src={src}
      alt=""
      data-testid="block-thumbnail"
      style={{ width: 48, height: 36, objectFit: 'cover', borderRadius: 3, background: 'var(--theme-elevation-100)' }}
    />
  ) : (
    <span
      style={{
        width: 48,
        height: 36,
        borderRadius: 3,
        background: 'var(--theme-elevation-100)',
        display: 'inline-block',
      }}
    />
  )
}

export function BlockRow(props: {
  position: Position
  index: number
  count: number
  ctx: BuilderContext
  dragging: boolean
  reorder: (from: number, to: number) => void
  drag: { start: () => void; drop: () => void }
}) {
  const { position, index, count, ctx, dragging, reorder, drag } = props
  const component = position.component
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const refusals = ctx.refusals.filter((r) => component && r.block === component['@id'])
  const [Drawer, , { openDrawer, closeDrawer }] = useDocumentDrawer({
    collectionSlug: component?.slug ?? 'component_positions',
    id: component ? editedId(component) : position.id,
  })
  const main = component?.main
  const quickEdit = main?.name
    ? main.kind === 'file'
      ? 'Alt text'
      : main.kind === 'html'
        ? 'Edit text'
        : 'Quick edit'
    : null

  return (
    <li
      draggable
      data-testid="position"
      data-refused={refusals.length > 0 || undefined}
      title={ctx.liveAtOnce ? 'Drag to move it: the site shows the new order at once.' : 'Drag to move it.'}
      onDragStart={(e) => {
        drag.start()
        e.dataTransfer.effectAllowed = 'move'
        e.dataTransfer.setData('text/plain', position['@id'])
      }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault()
        drag.drop()
      }}
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 10,
        padding: '8px 10px',
        marginBottom: 6,
        border: `1px solid ${refusals.length ? 'var(--theme-error-500)' : 'var(--theme-elevation-150)'}`,
        boxShadow: refusals.length ? '0 0 0 2px var(--theme-error-100)' : undefined,
        borderRadius: 4,
        background: 'var(--theme-elevation-50)',
        cursor: 'grab',
        opacity: dragging ? 0.5 : 1,
      }}
    >
      <span aria-hidden style={{ color: 'var(--theme-elevation-400)' }}>
        ⠿
      </span>
      {component && <Thumbnail component={component} />}
      <PositionLabel position={position} adminRoute={ctx.adminRoute} />
      <span style={{ marginLeft: 'auto', display: 'flex', gap: 4, alignItems: 'center' }}>
        {component?.state && (
          <BlockStatePill state={component.state} scheduledAt={component.scheduledAt} drafts={component.drafts} />
        )}
        {quickEdit && (
          <Button
            buttonStyle="subtle"
            size="small"
            margin={false}
            onClick={() => setEditing(!editing)}
            aria-label={`Edit ${main!.kind === 'file' ? 'alt text' : main!.kind === 'html' ? 'text' : main!.name} here`}
          >
            {quickEdit}
          </Button>
        )}
        {component && (
          <Button buttonStyle="secondary" size="small" margin={false} onClick={openDrawer}>
            Edit
          </Button>
        )}
        <RowMenu
          liveAtOnce={ctx.liveAtOnce}
          first={index === 0}
          last={index === count - 1}
          move={(by) => reorder(index, index + by)}
          remove={() => setConfirming(true)}
        />
      </span>
      {confirming && (
        <ConfirmRemove
          liveAtOnce={ctx.liveAtOnce}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false)
            void ctx.write(() =>
              apiFetch(`${ctx.apiPrefix}/_/page_builder/remove`, { body: { position: position['@id'] } }),
            )
          }}
        />
      )}
      {editing && component && main && <InlineEdit component={component} ctx={ctx} onDone={() => setEditing(false)} />}
      {refusals.map((r) => (
        <div
          key={`${r.block}:${r.field}`}
          role="alert"
          data-testid="block-refusal"
          style={{ width: '100%', color: 'var(--theme-error-500)', fontSize: 13 }}
        >
          {r.message}
        </div>
      ))}
      {component && (
        <Drawer
          onSave={async () => {
            closeDrawer()
            await ctx.reload()
          }}
        />
      )}
    </li>
  )
}

function PositionLabel({ position, adminRoute }: { position: Position; adminRoute: string }) {
  const type = (c: Component) => (
    <span style={small}>
      <TypeName icon={c.icon} label={c.label ?? c.type} />
    </span>
  )
  if (position.pageDataProperty) {
    return (
      <span title={`${position.pageDataClass}.${position.pageDataProperty}`}>
        <em>{position.binding ?? `${position.pageDataClass}.${position.pageDataProperty}`}</em>{' '}
        <span style={small}>from each record</span>
        {position.resolvesTo ? (
          <>
            {' '}
            → <ComponentLink component={position.resolvesTo} adminRoute={adminRoute} /> {type(position.resolvesTo)}
          </>
        ) : null}
        {position.component ? (
          <>
            {' '}
            (fallback: <ComponentLink component={position.component} adminRoute={adminRoute} />)
          </>
        ) : null}
      </span>
    )
  }
  if (!position.component) return <span style={{ color: 'var(--theme-error-500)' }}>Empty position (no component)</span>
  return (
    <span style={{ display: 'flex', flexDirection: 'column' }}>
      <ComponentLink component={position.component} adminRoute={adminRoute} /> {type(position.component)}
    </span>
  )
}

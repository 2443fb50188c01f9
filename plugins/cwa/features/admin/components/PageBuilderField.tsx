'use client'
/**
 * The page builder (a `ui` field on pages, layouts and page data): the
 * layout and the page with each group's positions in order, each showing its
 * component's title and type. Drag a position (or use its ↑ ↓ buttons) to
 * reorder: the new order is written in one request (POST
 * /_/page_builder/reorder, one transaction). Add a component of a type the
 * group allows (Payload's own create drawer, then POST
 * /_/page_builder/positions), remove one, open one, add a group.
 */
import { useConfig, useDocumentDrawer, useDocumentInfo } from '@payloadcms/ui'
import React, { useCallback, useEffect, useState } from 'react'
import { apiFetch } from './api.js'

interface Component {
  '@id': string
  slug: string
  id: string
  type: string
  title: string
}
interface Position {
  '@id': string
  id: string
  sortValue: number
  component: Component | null
  pageDataClass: string | null
  pageDataProperty: string | null
  resolvesTo: Component | null
}
interface Group {
  '@id': string
  id: string
  reference: string
  location: string | null
  addable: Array<{ '@id': string; slug: string; type: string }>
  positions: Position[]
}
interface Owner {
  '@id': string
  slug: string
  type: string
  reference: string | null
  groups: Group[]
}
interface View {
  owner: { '@id': string; slug: string }
  layout: Owner | null
  page: Owner | null
}

export interface PageBuilderFieldProps {
  apiPrefix: string
  /** The collection IRI of the type being edited; the record's IRI is `${collectionIri}/${id}`. */
  collectionIri: string
}

const box: React.CSSProperties = { border: '1px solid var(--theme-elevation-150)', borderRadius: 4, padding: '12px 16px', marginBottom: 12, background: 'var(--theme-elevation-0)' }
const row: React.CSSProperties = { display: 'flex', alignItems: 'center', gap: 8, padding: '8px 10px', marginBottom: 6, border: '1px solid var(--theme-elevation-100)', borderRadius: 4, background: 'var(--theme-elevation-50)' }
const small: React.CSSProperties = { fontSize: 12, color: 'var(--theme-elevation-500)' }

export function PageBuilderField({ apiPrefix, collectionIri }: PageBuilderFieldProps) {
  const { id } = useDocumentInfo()
  const { config } = useConfig()
  const adminRoute = config.routes.admin
  const [view, setView] = useState<View | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const iri = id ? `${collectionIri}/${id}` : null

  const load = useCallback(async () => {
    if (!iri) return
    try {
      setView(await apiFetch<View>(`${apiPrefix}/_/page_builder?iri=${encodeURIComponent(iri)}`))
      setError(null)
    } catch (e) {
      setError((e as Error).message)
    }
  }, [apiPrefix, iri])
  useEffect(() => void load(), [load])

  /** Runs a write, then reloads the view; its error is shown, never thrown. */
  const write = useCallback(
    async (fn: () => Promise<unknown>) => {
      setBusy(true)
      try {
        await fn()
        setError(null)
      } catch (e) {
        setError((e as Error).message)
      } finally {
        await load()
        setBusy(false)
      }
    },
    [load],
  )

  if (!iri) return <div style={box} data-testid="page-builder">Save this record first: the page builder works on a saved record.</div>
  return (
    <div data-testid="page-builder" aria-busy={busy} style={{ marginBottom: 24 }}>
      <h3 style={{ margin: '0 0 12px' }}>Page builder</h3>
      {error && (
        <div role="alert" style={{ ...box, borderColor: 'var(--theme-error-500)', color: 'var(--theme-error-500)' }}>
          {error}
        </div>
      )}
      {!view && !error && <div style={box}>Loading…</div>}
      {view &&
        [view.layout, view.page].map(
          (owner) =>
            owner && (
              <OwnerSection
                key={owner['@id']}
                owner={owner}
                editable={owner['@id'] === view.owner['@id']}
                apiPrefix={apiPrefix}
                adminRoute={adminRoute}
                write={write}
              />
            ),
        )}
    </div>
  )
}

function OwnerSection(props: { owner: Owner; editable: boolean; apiPrefix: string; adminRoute: string; write: (fn: () => Promise<unknown>) => Promise<void> }) {
  const { owner, editable, apiPrefix, adminRoute, write } = props
  const [location, setLocation] = useState('')
  return (
    <section style={box} data-testid={`owner-${owner.type.toLowerCase()}`}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <strong>
          {owner.type} {owner.reference ?? ''}
        </strong>
        {!editable && (
          <a href={`${adminRoute}/collections/${owner.slug}/${owner['@id'].split('/').pop()}`} style={small}>
            open {owner.type.toLowerCase()}
          </a>
        )}
      </div>
      {!editable && owner.type === 'Layout' && <p style={small}>Shared by every page on this layout: changes here show on all of them.</p>}
      {owner.groups.length === 0 && <p style={small}>No component groups yet.</p>}
      {owner.groups.map((group) => (
        <GroupSection key={group['@id']} group={group} apiPrefix={apiPrefix} adminRoute={adminRoute} write={write} />
      ))}
      {editable && (
        <div style={{ display: 'flex', gap: 8, marginTop: 8 }}>
          <input aria-label="New group location" placeholder="location, e.g. main" value={location} onChange={(e) => setLocation(e.target.value)} />
          <button
            type="button"
            disabled={!location}
            onClick={() => write(() => apiFetch(`${apiPrefix}/_/page_builder/groups`, { body: { owner: owner['@id'], location } })).then(() => setLocation(''))}
          >
            Add group
          </button>
        </div>
      )}
    </section>
  )
}

function GroupSection(props: { group: Group; apiPrefix: string; adminRoute: string; write: (fn: () => Promise<unknown>) => Promise<void> }) {
  const { group, apiPrefix, adminRoute, write } = props
  const [order, setOrder] = useState(group.positions)
  const [dragged, setDragged] = useState<number | null>(null)
  const [type, setType] = useState(group.addable[0]?.slug ?? '')
  useEffect(() => setOrder(group.positions), [group.positions])

  const reorder = (from: number, to: number) => {
    if (from === to || to < 0 || to >= order.length) return
    const next = [...order]
    const [moved] = next.splice(from, 1)
    next.splice(to, 0, moved!)
    setOrder(next) // shown at once; the reload after the write shows what was stored
    return write(() => apiFetch(`${apiPrefix}/_/page_builder/reorder`, { body: { componentGroup: group['@id'], positions: next.map((p) => p['@id']) } }))
  }

  return (
    <div style={{ margin: '12px 0' }} data-testid={`group-${group.location ?? group.reference}`}>
      <div style={{ marginBottom: 6 }}>
        Group <strong>{group.location ?? group.reference}</strong> <span style={small}>{group.reference}</span>
      </div>
      <ol style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {order.map((position, index) => (
          <li
            key={position['@id']}
            draggable
            data-testid="position"
            onDragStart={(e) => {
              setDragged(index)
              e.dataTransfer.effectAllowed = 'move'
              e.dataTransfer.setData('text/plain', position['@id'])
            }}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault()
              if (dragged !== null) void reorder(dragged, index)
              setDragged(null)
            }}
            style={{ ...row, cursor: 'grab', opacity: dragged === index ? 0.5 : 1 }}
          >
            <span aria-hidden style={{ cursor: 'grab' }}>
              ⠿
            </span>
            <PositionLabel position={position} adminRoute={adminRoute} />
            <span style={{ marginLeft: 'auto', display: 'flex', gap: 4 }}>
              <button type="button" aria-label="Move up" disabled={index === 0} onClick={() => reorder(index, index - 1)}>
                ↑
              </button>
              <button type="button" aria-label="Move down" disabled={index === order.length - 1} onClick={() => reorder(index, index + 1)}>
                ↓
              </button>
              <button
                type="button"
                aria-label="Remove"
                onClick={() => {
                  if (window.confirm('Remove this position? Its component is deleted too when it is used nowhere else.')) {
                    void write(() => apiFetch(`${apiPrefix}/_/page_builder/remove`, { body: { position: position['@id'] } }))
                  }
                }}
              >
                Remove
              </button>
            </span>
          </li>
        ))}
      </ol>
      {group.addable.length > 0 && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <select aria-label="Component type" value={type} onChange={(e) => setType(e.target.value)}>
            {group.addable.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.type}
              </option>
            ))}
          </select>
          {type && (
            <AddComponent
              key={type}
              slug={type}
              onCreated={(componentIri) => write(() => apiFetch(`${apiPrefix}/_/page_builder/positions`, { body: { componentGroup: group['@id'], component: componentIri } }))}
              collectionIri={group.addable.find((t) => t.slug === type)!['@id']}
            />
          )}
        </div>
      )}
    </div>
  )
}

function PositionLabel({ position, adminRoute }: { position: Position; adminRoute: string }) {
  const link = (c: Component) => (
    <a href={`${adminRoute}/collections/${c.slug}/${c.id}`} title="Open the component" data-testid="component-link">
      {c.title}
    </a>
  )
  if (position.pageDataProperty) {
    return (
      <span>
        <em>
          {position.pageDataClass}.{position.pageDataProperty}
        </em>{' '}
        <span style={small}>dynamic</span>
        {position.resolvesTo ? <> → {link(position.resolvesTo)} <span style={small}>{position.resolvesTo.type}</span></> : null}
        {position.component ? <> (fallback: {link(position.component)})</> : null}
      </span>
    )
  }
  if (!position.component) return <span style={{ color: 'var(--theme-error-500)' }}>Empty position (no component)</span>
  return (
    <span>
      {link(position.component)} <span style={small}>{position.component.type}</span>
    </span>
  )
}

/** Payload's create drawer for one component type; on save the new component is placed at the group's end. */
function AddComponent({ slug, collectionIri, onCreated }: { slug: string; collectionIri: string; onCreated: (iri: string) => Promise<void> }) {
  const [Drawer, , { openDrawer, closeDrawer }] = useDocumentDrawer({ collectionSlug: slug })
  return (
    <>
      <button type="button" onClick={openDrawer}>
        Add component
      </button>
      <Drawer
        onSave={async ({ doc, operation }) => {
          if (operation !== 'create') return
          closeDrawer()
          await onCreated(`${collectionIri}/${doc.id}`)
        }}
      />
    </>
  )
}

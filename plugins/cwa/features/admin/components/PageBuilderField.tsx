'use client'
/**
 * The page builder (a `ui` field on pages, layouts and page data): the
 * layout and the page with each group's blocks in order, each with its
 * title, type and publication state, and the page's own summary with
 * "Publish page" / "Schedule page" (builder/PublishBar.tsx). Blocks are
 * added with their content in one step (builder/AddBlock.tsx), edited in
 * place or in Payload's drawer, reordered by dragging (or ↑ ↓: one request,
 * one transaction), removed. A publish refusal names the block and the
 * field, and the block is highlighted.
 */
import { Banner, Button, TextInput, useConfig, useDocumentEvents, useDocumentInfo } from '@payloadcms/ui'
import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ApiError, apiFetch } from '../../../core/admin/api.js'
import { AddBlock } from './builder/AddBlock.js'
import { BlockRow } from './builder/BlockRow.js'
import { BlockStatePill } from './builder/BlockState.js'
import { PublishBar } from './builder/PublishBar.js'
import type { BuilderContext, Group, Owner, Refusal, View } from './builder/types.js'
import { useUnsavedInputs } from './builder/unsaved.js'

export interface PageBuilderFieldProps {
  apiPrefix: string
  /** The collection IRI of the type being edited; the record's IRI is `${collectionIri}/${id}`. */
  collectionIri: string
}

const box: React.CSSProperties = {
  border: '1px solid var(--theme-elevation-150)',
  borderRadius: 4,
  padding: '12px 16px',
  marginBottom: 12,
  background: 'var(--theme-elevation-0)',
}
const small: React.CSSProperties = { fontSize: 12, color: 'var(--theme-elevation-500)' }

export function PageBuilderField({ apiPrefix, collectionIri }: PageBuilderFieldProps) {
  const { id, collectionSlug } = useDocumentInfo()
  const { reportUpdate } = useDocumentEvents()
  const { config } = useConfig()
  const adminRoute = config.routes.admin
  const [view, setView] = useState<View | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [refusals, setRefusals] = useState<Refusal[]>([])
  const [busy, setBusy] = useState(false)
  const iri = id ? `${collectionIri}/${id}` : null

  const load = useCallback(async () => {
    if (!iri) return
    try {
      setView(await apiFetch<View>(`${apiPrefix}/_/page_builder?iri=${encodeURIComponent(iri)}`))
    } catch (e) {
      setError((e as Error).message)
    }
  }, [apiPrefix, iri])
  useEffect(() => void load(), [load])

  /** Runs a write, then reloads the view; its error is shown (a refusal naming blocks highlights them), never thrown. */
  // One write at a time: the second click of a double click (Add this block, Save, Publish page...) does nothing.
  const writing = useRef(false)
  const write = useCallback(
    async (fn: () => Promise<unknown>): Promise<boolean> => {
      if (writing.current) return false
      writing.current = true
      setBusy(true)
      let ok = false
      try {
        await fn()
        setError(null)
        setRefusals([])
        ok = true
      } catch (e) {
        const named = e instanceof ApiError ? e.violations.filter((v) => v.block) : []
        setRefusals(named.map((v) => ({ block: v.block!, field: v.field ?? null, message: v.message ?? '' })))
        setError(
          named.length > 0
            ? `Nothing was published: ${named.length === 1 ? 'a block needs' : `${named.length} blocks need`} attention (highlighted below).`
            : (e as Error).message,
        )
      } finally {
        await load()
        setBusy(false)
        writing.current = false
      }
      // The builder's writes go through the API, not Payload's form: reported as a save of this document, so Live
      // Preview (iframe or popup) tells the page it shows to refresh, as after a save of the form.
      if (ok && id && collectionSlug)
        reportUpdate({
          entitySlug: collectionSlug,
          id,
          // Payload's relationship inputs read the updated record's id from it (none of them points at this page).
          doc: { id },
          operation: 'update',
          updatedAt: new Date().toISOString(),
        })
      return ok
    },
    [collectionSlug, id, load, reportUpdate],
  )
  const { unsaved, count: unsavedInputs } = useUnsavedInputs()
  const pagePublic = view?.owner.slug === 'layouts' || view?.route?.state === 'live'
  const ctx: BuilderContext = useMemo(
    () => ({ apiPrefix, adminRoute, write, refusals, reload: load, unsaved, unsavedInputs, liveAtOnce: pagePublic }),
    [apiPrefix, adminRoute, write, refusals, load, unsaved, unsavedInputs, pagePublic],
  )

  if (!iri) {
    return (
      <div style={box} data-testid="page-builder">
        The page builder opens here once this record is saved: fill in the fields marked *, then Save.
      </div>
    )
  }
  return (
    <div data-testid="page-builder" aria-busy={busy} style={{ marginBottom: 24 }}>
      <h3 style={{ margin: '0 0 12px' }}>Page builder</h3>
      {view && <PublishBar view={view} iri={iri} ctx={ctx} />}
      {error && (
        <Banner type="error">
          <span role="alert">{error}</span>
          {refusals.length > 0 && (
            <ul style={{ margin: '6px 0 0', paddingLeft: 18 }}>
              {refusals.map((r) => (
                <li key={`${r.block}:${r.field}`}>{r.message}</li>
              ))}
            </ul>
          )}
        </Banner>
      )}
      {!view && !error && <div style={box}>Loading…</div>}
      {view?.pageData && (
        <div style={{ ...small, marginBottom: 8 }} data-testid="page-data-state">
          This record: <BlockStatePill state={view.pageData.state} scheduledAt={view.pageData.scheduledAt} />
        </div>
      )}
      {view &&
        // The page's own blocks first; the layout's (shared by every page on it) after them, folded.
        [view.page, view.layout].map(
          (owner) =>
            owner && (
              <OwnerSection key={owner['@id']} owner={owner} editable={owner['@id'] === view.owner['@id']} ctx={ctx} />
            ),
        )}
    </div>
  )
}

/** The blocks of a layout seen from one of its pages: folded under a summary that says they are shared. */
function SharedLayout({ owner, ctx: pageCtx }: { owner: Owner; ctx: BuilderContext }) {
  // A layout's changes show at once on every public page on it.
  const ctx = useMemo(() => ({ ...pageCtx, liveAtOnce: true }), [pageCtx])
  const blocks = owner.groups.reduce((n, g) => n + g.positions.length, 0)
  return (
    <details style={box} data-testid="owner-layout">
      <summary style={{ cursor: 'pointer' }}>
        <strong>Layout {owner.reference ?? ''}</strong>{' '}
        <span style={small}>
          shared by every page on this layout: its header, navigation and footer ({blocks}{' '}
          {blocks === 1 ? 'block' : 'blocks'}). Changes here show on all of them.
        </span>
      </summary>
      <a href={`${ctx.adminRoute}/collections/${owner.slug}/${owner['@id'].split('/').pop()}`} style={small}>
        Open the layout
      </a>
      {owner.groups.map((group) => (
        <GroupSection key={group['@id']} group={group} ctx={ctx} />
      ))}
    </details>
  )
}

function OwnerSection({ owner, editable, ctx }: { owner: Owner; editable: boolean; ctx: BuilderContext }) {
  const [location, setLocation] = useState('')
  if (!editable && owner.type === 'Layout') return <SharedLayout owner={owner} ctx={ctx} />
  return (
    <section style={box} data-testid={`owner-${owner.type.toLowerCase()}`}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <strong>
          {owner.type} {owner.reference ?? ''}
        </strong>
        {!editable && (
          <a href={`${ctx.adminRoute}/collections/${owner.slug}/${owner['@id'].split('/').pop()}`} style={small}>
            Open the {owner.type.toLowerCase()}
          </a>
        )}
      </div>
      {owner.groups.length === 0 && <p style={small}>No component groups yet.</p>}
      {owner.groups.map((group) => (
        <GroupSection key={group['@id']} group={group} ctx={ctx} />
      ))}
      {editable && (
        <div style={{ display: 'flex', gap: 8, marginTop: 8, alignItems: 'flex-end' }}>
          <div style={{ width: 260 }}>
            <TextInput
              path={`cwaNewGroup_${owner['@id'].replace(/\W/g, '_')}`}
              label="New group location"
              placeholder="e.g. main"
              value={location}
              onChange={(e: React.ChangeEvent<HTMLInputElement>) => setLocation(e.target.value)}
            />
          </div>
          <Button
            buttonStyle="secondary"
            size="small"
            margin={false}
            disabled={!location}
            onClick={() =>
              void ctx
                .write(() =>
                  apiFetch(`${ctx.apiPrefix}/_/page_builder/groups`, { body: { owner: owner['@id'], location } }),
                )
                .then((ok) => ok && setLocation(''))
            }
          >
            Add group
          </Button>
        </div>
      )}
    </section>
  )
}

/** A group as an editor reads it: its location in words ("Main", "Sidebar top"), else its reference. */
const groupName = (group: Group) =>
  group.location ? group.location.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase()) : group.reference

function GroupSection({ group, ctx }: { group: Group; ctx: BuilderContext }) {
  const [order, setOrder] = useState(group.positions)
  const [dragged, setDragged] = useState<number | null>(null)
  useEffect(() => setOrder(group.positions), [group.positions])

  const reorder = (from: number, to: number) => {
    if (from === to || to < 0 || to >= order.length) return
    const next = [...order]
    const [moved] = next.splice(from, 1)
    next.splice(to, 0, moved!)
    setOrder(next) // shown at once; the reload after the write shows what was stored
    void ctx.write(() =>
      apiFetch(`${ctx.apiPrefix}/_/page_builder/reorder`, {
        body: { componentGroup: group['@id'], positions: next.map((p) => p['@id']) },
      }),
    )
  }

  return (
    <div style={{ margin: '12px 0' }} data-testid={`group-${group.location ?? group.reference}`}>
      {/* The group by where it sits (main, header...), in words; its reference is for developers (a tooltip). */}
      <div style={{ marginBottom: 6 }} title={`Group reference: ${group.reference}`}>
        <strong>{groupName(group)}</strong>
      </div>
      <ol style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {order.map((position, index) => (
          <BlockRow
            key={position['@id']}
            position={position}
            index={index}
            count={order.length}
            ctx={ctx}
            dragging={dragged === index}
            reorder={reorder}
            drag={{
              start: () => setDragged(index),
              drop: () => {
                if (dragged !== null) reorder(dragged, index)
                setDragged(null)
              },
            }}
          />
        ))}
      </ol>
      <AddBlock group={group} ctx={ctx} />
    </div>
  )
}

'use client'
/**
 * The orphan report's rows (title, type, age, a link to each record; the
 * server view names them), a scan (POST /_/orphaned_resources/scan) and
 * deletes (POST .../delete: the ticked IRIs, or everything), with what the
 * delete took and what it refused. After an action the server view renders
 * the new report (router.refresh), then the message says what happened.
 */
import { Banner, Button, CheckboxInput, ConfirmationModal, Pill, useModal } from '@payloadcms/ui'
import { useRouter } from 'next/navigation.js'
import React, { useState, useTransition } from 'react'
import { apiFetch } from '../../../core/admin/api.js'
import { TypeName } from '../../../core/admin/TypeIcon.js'
import type { TypeIconName } from '../../../core/admin/typeIcons.js'

export type OrphanKind = 'componentGroups' | 'componentPositions' | 'components'

export interface OrphanRow {
  iri: string
  title: string
  type: string
  icon: TypeIconName
  href: string
  exists: boolean
  /** "3 days ago" */
  age: string
  /** The creation date in the admin's date format. */
  created: string
}

interface DeleteResult {
  deleted: Record<string, string[]>
  rejected: Array<{ iri: string; reason: string }>
}

const DELETE_ALL = 'cwa-orphans-delete-all'

export function OrphansPanel({
  apiPrefix,
  generatedAt,
  generatedAge,
  sections,
}: {
  apiPrefix: string
  generatedAt: string | null
  generatedAge: string | null
  sections: Array<{ kind: OrphanKind; heading: string; rows: OrphanRow[] }> | null
}) {
  const router = useRouter()
  const { openModal } = useModal()
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [message, setMessage] = useState<{ text: string; type: 'success' | 'error' } | null>(null)
  const [busy, setBusy] = useState(false)
  const [refreshing, startRefresh] = useTransition()
  const base = `${apiPrefix}/_/orphaned_resources`
  const total = sections?.reduce((n, s) => n + s.rows.length, 0) ?? 0

  /** Runs an action, re-renders the report, then says what happened. */
  const run = async (fn: () => Promise<string>) => {
    setBusy(true)
    setMessage(null)
    let outcome: { text: string; type: 'success' | 'error' }
    try {
      outcome = { text: await fn(), type: 'success' }
    } catch (e) {
      outcome = { text: (e as Error).message, type: 'error' }
    }
    setSelected(new Set())
    startRefresh(() => router.refresh())
    setMessage(outcome)
    setBusy(false)
  }
  const scan = () =>
    run(async () => {
      const answer = await apiFetch<Record<string, unknown>>(`${base}/scan`, { method: 'POST' })
      return answer.job
        ? `Scan queued (job ${String(answer.job)}): reload in a moment.`
        : 'Scanned: the report below is up to date.'
    })
  const remove = (body: { iris: string[] } | { all: true }) =>
    run(async () => {
      const result = await apiFetch<DeleteResult>(`${base}/delete`, { body })
      const deleted = Object.values(result.deleted).reduce((n, list) => n + list.length, 0)
      const refused = result.rejected.map((r) => `${r.iri} (${r.reason})`).join(', ')
      return `Deleted ${deleted} record${deleted === 1 ? '' : 's'}.${refused ? ` Not deleted: ${refused}.` : ''}`
    })
  const toggle = (iri: string, on: boolean) => {
    const next = new Set(selected)
    if (on) next.add(iri)
    else next.delete(iri)
    setSelected(next)
  }
  const working = busy || refreshing

  return (
    <div data-testid="orphans" aria-busy={working}>
      <p style={{ color: 'var(--theme-elevation-600)', maxWidth: 720 }}>
        Blocks, positions and groups that nothing shows any more: a block placed nowhere, a position without a block, a
        group no page, layout or block holds. They stay until deleted here (or by the cleanup job).
      </p>
      <div style={{ display: 'flex', gap: 'calc(var(--base) / 2)', alignItems: 'center', flexWrap: 'wrap' }}>
        <Button buttonStyle="primary" size="medium" margin={false} onClick={() => void scan()} disabled={working}>
          Scan now
        </Button>
        <Button
          buttonStyle="secondary"
          size="medium"
          margin={false}
          onClick={() => void remove({ iris: [...selected] })}
          disabled={working || selected.size === 0}
        >
          Delete selected ({selected.size})
        </Button>
        <Button
          buttonStyle="error"
          size="medium"
          margin={false}
          onClick={() => openModal(DELETE_ALL)}
          disabled={working || total === 0}
        >
          Delete all
        </Button>
      </div>
      <ConfirmationModal
        modalSlug={DELETE_ALL}
        heading="Delete every orphaned record?"
        body={`The ${total} records listed here are deleted, with what they own.`}
        confirmLabel="Delete all"
        onConfirm={() => remove({ all: true })}
      />
      {message && (
        <div role="status" style={{ marginTop: 'var(--base)' }}>
          <Banner type={message.type}>{message.text}</Banner>
        </div>
      )}
      {sections === null ? (
        <p>No report yet: run a scan.</p>
      ) : (
        <>
          <p data-testid="orphans-summary">
            Report of {generatedAt} ({generatedAge}): {total} orphaned record{total === 1 ? '' : 's'}.
          </p>
          {sections.map(({ kind, heading, rows }) => (
            <section key={kind} data-testid={`orphans-${kind}`} style={{ marginTop: 'var(--base)' }}>
              <h3>
                {heading} ({rows.length})
              </h3>
              {rows.length === 0 ? (
                <p style={{ color: 'var(--theme-elevation-500)' }}>None.</p>
              ) : (
                <div className="table">
                  <table cellPadding={0} cellSpacing={0}>
                    <thead>
                      <tr>
                        <th style={{ width: 40 }} />
                        <th>Title</th>
                        <th>Type</th>
                        <th>Created</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((row) => (
                        <tr key={row.iri} data-testid="orphan-row" data-iri={row.iri}>
                          <td>
                            <CheckboxInput
                              checked={selected.has(row.iri)}
                              onToggle={(e) => toggle(row.iri, e.target.checked)}
                              aria-label={`Select ${row.title}`}
                            />
                          </td>
                          <td data-testid="orphan-title">
                            {row.exists ? (
                              <a href={row.href}>{row.title}</a>
                            ) : (
                              <span title={row.iri}>{row.title} (deleted since the scan)</span>
                            )}
                          </td>
                          <td data-testid="orphan-type">
                            <Pill size="small" pillStyle="light-gray">
                              <TypeName icon={row.icon} label={row.type} />
                            </Pill>
                          </td>
                          <td data-testid="orphan-age" title={row.created}>
                            {row.age}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          ))}
        </>
      )}
    </div>
  )
}

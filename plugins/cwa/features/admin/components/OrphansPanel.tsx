'use client'
/**
 * The orphan report (GET /_/orphaned_resources), a scan (POST .../scan) and
 * deletes (POST .../delete: the ticked IRIs, or everything), with what the
 * delete took and what it refused.
 */
import React, { useCallback, useEffect, useState } from 'react'
import { apiFetch, ApiError } from './api.js'

interface Report {
  generatedAt: string
  componentGroups: string[]
  componentPositions: string[]
  components: string[]
}
interface DeleteResult {
  deleted: Record<string, string[]>
  rejected: Array<{ iri: string; reason: string }>
}

const KINDS: Array<[keyof Omit<Report, 'generatedAt'>, string]> = [
  ['componentGroups', 'Component groups'],
  ['componentPositions', 'Component positions'],
  ['components', 'Components'],
]

export function OrphansPanel({ apiPrefix }: { apiPrefix: string; adminRoute: string }) {
  const [report, setReport] = useState<Report | null | undefined>(undefined)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const base = `${apiPrefix}/_/orphaned_resources`

  const load = useCallback(async () => {
    try {
      setReport(await apiFetch<Report>(base))
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setReport(null)
      else setMessage((e as Error).message)
    }
  }, [base])
  useEffect(() => void load(), [load])

  /** Runs an action, reloads the report, then says what happened (so the message never precedes the list it describes). */
  const run = async (fn: () => Promise<string>) => {
    setBusy(true)
    let outcome: string
    try {
      outcome = await fn()
    } catch (e) {
      outcome = (e as Error).message
    }
    setSelected(new Set())
    await load()
    setMessage(outcome)
    setBusy(false)
  }
  const scan = () =>
    run(async () => {
      const answer = await apiFetch<Record<string, unknown>>(`${base}/scan`, { method: 'POST' })
      return answer.job ? `Scan queued (job ${String(answer.job)}): reload in a moment.` : 'Scanned.'
    })
  const remove = (body: { iris: string[] } | { all: true }) =>
    run(async () => {
      const result = await apiFetch<DeleteResult>(`${base}/delete`, { body })
      const deleted = Object.values(result.deleted).reduce((n, list) => n + list.length, 0)
      const refused = result.rejected.map((r) => `${r.iri} (${r.reason})`).join(', ')
      return `Deleted ${deleted} record(s).${refused ? ` Not deleted: ${refused}.` : ''}`
    })
  const total = report ? KINDS.reduce((n, [kind]) => n + report[kind].length, 0) : 0

  return (
    <div data-testid="orphans" aria-busy={busy}>
      <p style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <button type="button" onClick={scan} disabled={busy}>
          Scan now
        </button>
        <button type="button" onClick={() => remove({ iris: [...selected] })} disabled={busy || selected.size === 0}>
          Delete selected ({selected.size})
        </button>
        <button type="button" onClick={() => window.confirm(`Delete all ${total} orphaned records?`) && remove({ all: true })} disabled={busy || total === 0}>
          Delete all
        </button>
      </p>
      {message && <p role="status">{message}</p>}
      {report === undefined && <p>Loading…</p>}
      {report === null && <p>No report yet: run a scan.</p>}
      {report && (
        <>
          <p>
            Report of {new Date(report.generatedAt.replace(/(\.\d{3})\d+/, '$1')).toLocaleString()}: {total} orphaned record(s).
          </p>
          {KINDS.map(([kind, title]) => (
            <section key={kind}>
              <h3>
                {title} ({report[kind].length})
              </h3>
              <ul style={{ listStyle: 'none', paddingLeft: 0 }}>
                {report[kind].map((iri) => (
                  <li key={iri}>
                    <label>
                      <input
                        type="checkbox"
                        checked={selected.has(iri)}
                        onChange={(e) => {
                          const next = new Set(selected)
                          if (e.target.checked) next.add(iri)
                          else next.delete(iri)
                          setSelected(next)
                        }}
                      />{' '}
                      <code>{iri}</code>
                    </label>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </div>
  )
}

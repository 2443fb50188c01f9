'use client'
/**
 * The page's own publication: how many changes are not published, "Publish
 * page" (every pending draft reachable from the page, in one transaction:
 * POST /_/page_builder/publish) and "Schedule page" beside it (POST
 * /_/page_builder/schedule), the layout's changes only when ticked.
 */
import { Button, CheckboxInput, DatePicker, Pill } from '@payloadcms/ui'
import React, { useState } from 'react'
import { apiFetch } from '../../../../core/admin/api.js'
import { type BuilderContext, formatDate, type View } from './types.js'

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export function PublishBar({ view, iri, ctx }: { view: View; iri: string; ctx: BuilderContext }) {
  const [includeLayout, setIncludeLayout] = useState(false)
  const [when, setWhen] = useState<Date | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const onLayout = view.owner.slug === 'layouts'
  const pending = onLayout ? view.changes.layout : view.changes.page + (includeLayout ? view.changes.layout : 0)
  const total = view.changes.page + view.changes.layout

  const run = async (path: 'publish' | 'schedule') => {
    setDone(null)
    let answer: { totalItems?: number; publishedAt?: string } = {}
    const ok = await ctx.write(async () => {
      answer = await apiFetch(`${ctx.apiPrefix}/_/page_builder/${path}`, {
        body: { iri, includeLayout, ...(path === 'schedule' ? { publishedAt: when?.toISOString() } : {}) },
      })
    })
    if (!ok) return
    const n = answer.totalItems ?? 0
    setDone(
      path === 'publish'
        ? `Published ${plural(n, 'block', 'blocks')}.`
        : `Scheduled ${plural(n, 'block', 'blocks')} for ${formatDate(answer.publishedAt!)}.`,
    )
  }

  return (
    <div
      data-testid="page-publish"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 10,
        padding: '10px 12px',
        marginBottom: 12,
        border: '1px solid var(--theme-elevation-150)',
        borderRadius: 4,
        background: 'var(--theme-elevation-50)',
      }}
    >
      <span data-testid="page-changes">
        <Pill size="small" pillStyle={total > 0 ? 'warning' : 'success'}>
          {total === 0
            ? 'Everything published'
            : `${plural(onLayout ? view.changes.layout : view.changes.page, 'change', 'changes')} not published${!onLayout && view.changes.layout ? ` (+${view.changes.layout} on the layout)` : ''}`}
        </Pill>
      </span>
      {!onLayout && view.changes.layout > 0 && (
        <CheckboxInput
          id={`cwa-include-layout-${view.owner['@id']}`}
          label={`Include the layout’s ${plural(view.changes.layout, 'change', 'changes')} (every page on it shows them)`}
          checked={includeLayout}
          onToggle={() => setIncludeLayout(!includeLayout)}
        />
      )}
      <span style={{ marginLeft: 'auto', display: 'flex', gap: 8, alignItems: 'center' }}>
        <Button
          buttonStyle="primary"
          size="small"
          margin={false}
          disabled={pending === 0}
          onClick={() => void run('publish')}
          tooltip={pending === 0 ? 'Nothing to publish' : undefined}
        >
          Publish page
        </Button>
        <span style={{ width: 210 }} data-testid="schedule-at">
          <DatePicker
            pickerAppearance="dayAndTime"
            placeholder="Publish at…"
            value={when ?? undefined}
            onChange={(d: Date) => setWhen(d)}
          />
        </span>
        <Button
          buttonStyle="secondary"
          size="small"
          margin={false}
          disabled={pending === 0 || !when}
          onClick={() => void run('schedule')}
        >
          Schedule page
        </Button>
      </span>
      {done && (
        <span role="status" style={{ width: '100%', fontSize: 13 }}>
          {done}
        </span>
      )}
    </div>
  )
}

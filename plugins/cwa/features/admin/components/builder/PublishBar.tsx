'use client'
/**
 * The page's own publication: whether the page is public, how many changes
 * are not published, "Publish page" (every pending draft reachable from the
 * page, and a route that waits for the page's first publication, in one
 * transaction: POST /_/page_builder/publish) and "Schedule page" beside it
 * (POST /_/page_builder/schedule), the layout's changes only when ticked.
 * Both save the page's own form first (its title, description...), and
 * refuse while a builder input holds text not saved.
 */
import { Button, CheckboxInput, DatePicker, Pill, useConfig, useForm, useFormModified } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'
import { apiFetch } from '../../../../core/admin/api.js'
import { useAdminDate } from '../../../../core/admin/useAdminDate.js'
import { useOneAtATime } from '../../../../core/admin/useOneAtATime.js'
import { type BuilderContext, type PageRoute, routeWaits, type View } from './types.js'

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export function PublishBar({ view, iri, ctx }: { view: View; iri: string; ctx: BuilderContext }) {
  const [includeLayout, setIncludeLayout] = useState(false)
  const [when, setWhen] = useState<Date | null>(null)
  // What the last publication did, with the count of changes it left (null until the reloaded view shows it).
  const [done, setDoneState] = useState<{ text: string; left: number | null } | null>(null)
  const setDone = (text: string | null) => setDoneState(text === null ? null : { text, left: null })
  const [refused, setRefused] = useState<string | null>(null)
  const { submit } = useForm()
  const { config } = useConfig()
  const formatDate = useAdminDate()
  const formModified = useFormModified()
  const onLayout = view.owner.slug === 'layouts'
  const waits = routeWaits(view.route)
  const pending =
    (onLayout ? view.changes.layout : view.changes.page + (includeLayout ? view.changes.layout : 0)) + (waits ? 1 : 0)
  const total = view.changes.page + view.changes.layout + (waits ? 1 : 0)
  // A line about the last publication is stale once anything changed after it (an edit, another tab's save).
  useEffect(() => {
    if (done?.left === null) setDoneState({ ...done, left: total })
    else if (done && done.left !== total) setDoneState(null)
  }, [done, total])

  /** The page's own fields saved first (a publication never leaves them behind), or why not. */
  const saveForm = async (): Promise<string | null> => {
    if (ctx.unsavedInputs > 0)
      return 'A block’s text is not saved yet (an edit or a new block is open below): save or cancel it first. Nothing was published.'
    if (!formModified) return null
    const saved = await submit()
    return saved && saved.res.ok
      ? null
      : 'The page’s own fields could not be saved (see the form): nothing was published.'
  }

  // The page's form is saved first: a second click meanwhile (a double click) would save and publish twice.
  const run = useOneAtATime(async (path: 'publish' | 'schedule') => {
    setDone(null)
    setRefused(null)
    const unsaved = await saveForm()
    if (unsaved) return setRefused(unsaved)
    let answer: { totalItems?: number; publishedAt?: string; route?: string | null } = {}
    const ok = await ctx.write(async () => {
      answer = await apiFetch(`${ctx.apiPrefix}/_/page_builder/${path}`, {
        body: { iri, includeLayout, ...(path === 'schedule' ? { publishedAt: when?.toISOString() } : {}) },
      })
    })
    if (!ok) return
    const n = answer.totalItems ?? 0
    const blocks = n > 0 || !answer.route ? plural(n, 'block', 'blocks') : ''
    setDone(
      path === 'publish'
        ? [blocks && `Published ${blocks}.`, answer.route && `The page is public now at ${answer.route}.`]
            .filter(Boolean)
            .join(' ')
        : [
            blocks && `Scheduled ${blocks} for ${formatDate(answer.publishedAt!)}.`,
            answer.route && `The page goes public at ${answer.route} on ${formatDate(answer.publishedAt!)}.`,
          ]
            .filter(Boolean)
            .join(' '),
    )
  })

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
      {!onLayout && <RouteState route={view.route} />}
      <span data-testid="page-changes">
        <Pill size="small" pillStyle={total > 0 ? 'warning' : 'success'}>
          {total === 0
            ? 'Everything published'
            : `${plural((onLayout ? view.changes.layout : view.changes.page) + (waits ? 1 : 0), 'change', 'changes')} not published${!onLayout && view.changes.layout ? ` (+${view.changes.layout} on the layout)` : ''}`}
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
            displayFormat={config.admin?.dateFormat}
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
          {done.text}
        </span>
      )}
      {refused && (
        <span role="alert" data-testid="publish-refused" style={{ width: '100%', fontSize: 13 }}>
          {refused}
        </span>
      )}
      {!onLayout && view.route?.state === 'live' && (
        <span data-testid="at-once-note" style={{ width: '100%', fontSize: 12, color: 'var(--theme-elevation-500)' }}>
          This page is public: moving, removing or adding a block, a new group, and the page’s own fields show on the
          site as soon as they are saved; a block’s content waits for “Publish page”.
        </span>
      )}
    </div>
  )
}

/** Where the page is public, from when, or that it is not yet (and what makes it public). */
function RouteState({ route }: { route: PageRoute | null }) {
  const formatDate = useAdminDate()
  const text = !route
    ? 'Not on the site: no route yet'
    : routeWaits(route)
      ? route.liveAt !== null
        ? `Goes public at ${route.path} on ${formatDate(route.liveAt)}`
        : `Not public yet: “Publish page” makes it public at ${route.path}`
      : route.state === 'live'
        ? `Public at ${route.path}`
        : route.state === 'scheduled'
          ? `Goes public at ${route.path} on ${formatDate(route.effectiveLiveAt!)} (with its parent page)`
          : `Not public: a parent page’s route is not public (${route.path})`
  return (
    <span data-testid="page-route">
      <Pill size="small" pillStyle={route?.state === 'live' ? 'success' : 'light-gray'}>
        {text}
      </Pill>
    </span>
  )
}

/**
 * The dashboard's start panel (admin.components.beforeDashboard, a server
 * component): the pages edited last, pending drafts and scheduled
 * publications (startPanelLists.ts), each linking to its edit view, and the
 * shortcuts an editor starts from (a new page, the route tree).
 */
import { Button, Pill } from '@payloadcms/ui'
import { createLocalReq, type Payload, type PayloadRequest, type TypedUser } from 'payload'
import React from 'react'
import { adminDate, age } from '../../../core/admin/dates.js'
import { TypeName } from '../../../core/admin/TypeIcon.js'
import { type StartItem, startLists } from './startPanelLists.js'

interface StartPanelProps {
  payload: Payload
  user?: TypedUser | null
  /** Payload's ServerProps name an I18nClient, but the dashboard view passes its request's own i18n (a server I18n). */
  i18n: PayloadRequest['i18n']
}

const card: React.CSSProperties = {
  border: '1px solid var(--theme-elevation-150)',
  borderRadius: 'var(--style-radius-m, 4px)',
  padding: 'calc(var(--base) * 0.75) var(--base)',
  background: 'var(--theme-elevation-0)',
  minWidth: 0,
}

/** One list of the panel: each record by title, its type, and what `meta` says of it. */
function List({
  items,
  empty,
  testId,
  meta,
}: {
  items: StartItem[]
  empty: string
  testId: string
  meta: (item: StartItem) => React.ReactNode
}) {
  return (
    <ul data-testid={testId} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.length === 0 && <li style={{ color: 'var(--theme-elevation-500)' }}>{empty}</li>}
      {items.map((entry) => (
        <li
          key={`${entry.slug}:${entry.id}`}
          data-testid="start-item"
          style={{ padding: 'calc(var(--base) / 4) 0', borderBottom: '1px solid var(--theme-elevation-50)' }}
        >
          <a href={entry.href}>{entry.title}</a>
          <div
            style={{
              display: 'flex',
              gap: 'calc(var(--base) / 2)',
              alignItems: 'center',
              color: 'var(--theme-elevation-500)',
              fontSize: '0.85em',
            }}
          >
            <Pill size="small" pillStyle="light-gray">
              <TypeName icon={entry.icon} label={entry.type} />
            </Pill>
            {/* One inline run: its words wrap as a sentence, not as separate flex items. */}
            <span>{meta(entry)}</span>
          </div>
        </li>
      ))}
    </ul>
  )
}

export async function StartPanel({ payload, user, i18n }: StartPanelProps) {
  if (!user) return null
  const req = await createLocalReq({ user }, payload)
  req.i18n = i18n
  const { recentPages, drafts, scheduled } = await startLists(req)
  const adminRoute = payload.config.routes.admin
  const pattern = payload.config.admin?.dateFormat
  const language = i18n.language ?? 'en'
  const when = (value: string | null) =>
    value ? <span title={adminDate(value, i18n, pattern)}>{age(value, language)}</span> : null
  return (
    <section data-testid="start-panel" style={{ marginBottom: 'calc(var(--base) * 2)' }}>
      <div
        style={{
          display: 'flex',
          gap: 'var(--base)',
          alignItems: 'center',
          marginBottom: 'var(--base)',
          flexWrap: 'wrap',
        }}
      >
        <h2 style={{ margin: 0 }}>Start here</h2>
        <Button
          el="link"
          to={`${adminRoute}/collections/pages/create`}
          buttonStyle="primary"
          size="small"
          margin={false}
        >
          New page
        </Button>
        <Button el="link" to={`${adminRoute}/cwa/routes`} buttonStyle="secondary" size="small" margin={false}>
          Route tree
        </Button>
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', gap: 'var(--base)' }}>
        <div style={card}>
          <h4 style={{ marginTop: 0 }}>Recently edited pages</h4>
          <List
            items={recentPages}
            empty="No pages yet."
            testId="start-recent-pages"
            meta={(entry) => <>edited {when(entry.updatedAt)}</>}
          />
        </div>
        <div style={card}>
          <h4 style={{ marginTop: 0 }}>Drafts not published</h4>
          <List
            items={drafts}
            empty="Nothing waiting: every draft is published."
            testId="start-drafts"
            meta={(entry) => (
              <>
                {entry.note === 'draft-of-live' ? 'changes to a live block' : 'new'} · edited {when(entry.updatedAt)}
              </>
            )}
          />
        </div>
        <div style={card}>
          <h4 style={{ marginTop: 0 }}>Scheduled publications</h4>
          <List
            items={scheduled}
            empty="Nothing scheduled."
            testId="start-scheduled"
            meta={(entry) => (
              <>
                goes live {when(entry.publishAt)} ({adminDate(entry.publishAt, i18n, pattern)})
              </>
            )}
          />
        </div>
      </div>
    </section>
  )
}

/**
 * The invariants `npm run load` checks, as functions that only judge what
 * they are given (test/bench/loadInvariants.test.ts feeds them violations):
 * - no draft reaches an anonymous caller: every anonymous body is scanned for
 *   the marker every draft's content carries and for the id of every record
 *   that was a draft for the whole time the request was under way;
 * - no lost write: every record holds what its last acknowledged write put there;
 * - no stale anonymous read: an anonymous read sent after a publication was
 *   acknowledged shows that version or a later one (any instance, any replica);
 * - exactly one published twin per record, in SQL over every publishable table;
 * - the collection's totalItems (kept by triggers, not counted) equals the
 *   rows counted in SQL, for an anonymous caller and for an admin.
 */
import type pg from 'pg'
import type { RecordState, Violation } from './types'

/** Every draft the load writes holds this, followed by a number; published content never does. */
export const DRAFT_MARKER = 'DRAFT-MARKER-'

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

/**
 * When each record was certainly a draft: from the moment the answer creating
 * it arrived until the request publishing it was sent (open while unpublished).
 */
export class DraftWindows {
  private readonly windows = new Map<string, { from: number; to: number }>()

  opened(id: string, at: number): void {
    if (!this.windows.has(id)) this.windows.set(id, { from: at, to: Infinity })
  }

  closed(id: string, at: number): void {
    const window = this.windows.get(id)
    if (window && window.to === Infinity) window.to = at
  }

  /** Whether `id` was a draft for the whole time from `sentAt` to `receivedAt`. */
  draftThroughout(id: string, sentAt: number, receivedAt: number): boolean {
    const window = this.windows.get(id)
    return !!window && window.from <= sentAt && receivedAt <= window.to
  }
}

/** Violations in one anonymous response body: draft content (the marker), or the id of a record that was a draft throughout. */
export function draftLeaks(
  body: string,
  request: { path: string; sentAt: number; receivedAt: number },
  windows: DraftWindows,
): Violation[] {
  const found: Violation[] = []
  const marker = body.indexOf(DRAFT_MARKER)
  if (marker >= 0) {
    const sample = body.slice(marker, marker + DRAFT_MARKER.length + 12).replace(/[^\w-].*$/s, '')
    found.push({
      invariant: 'no draft returned to an anonymous request',
      detail: `GET ${request.path} returned draft content ${sample}`,
    })
  }
  for (const id of new Set(body.match(UUID) ?? [])) {
    if (windows.draftThroughout(id, request.sentAt, request.receivedAt)) {
      found.push({
        invariant: 'no draft returned to an anonymous request',
        detail: `GET ${request.path} named the draft ${id}`,
      })
    }
  }
  return found
}

/**
 * The published versions of each record, in the order their publications
 * were acknowledged (each record is published by one connection only, one
 * request at a time, so the order is the database's). A version is known by
 * its content, which is unique.
 */
export class PublishedVersions {
  private readonly versions = new Map<string, Array<{ html: string; at: number }>>()
  /** Reads judged: sent after at least one publication of their record was acknowledged. */
  judged = 0

  /** The record's content before the run: known from the start. */
  initial(id: string, html: string): void {
    this.versions.set(id, [{ html, at: -Infinity }])
  }

  /** A publication of `html` on `id` was acknowledged at `at`. */
  acknowledged(id: string, html: string, at: number): void {
    this.versions.get(id)?.push({ html, at })
  }

  /**
   * A violation when an anonymous read of `id`, sent at `sentAt`, shows a
   * version older than the newest one acknowledged before it was sent. A
   * body that shows no known version (a publication still under way, whose
   * acknowledgement is not in yet) is not judged.
   */
  stale(id: string, body: string, request: { path: string; sentAt: number }): Violation | null {
    const versions = this.versions.get(id)
    if (!versions) return null
    let shown = -1
    for (let i = versions.length - 1; i >= 0; i--) {
      if (body.includes(JSON.stringify(versions[i]!.html))) {
        shown = i
        break
      }
    }
    if (shown < 0) return null
    const due = versions.findLastIndex((version) => version.at <= request.sentAt)
    if (due > 0) this.judged++
    if (shown >= due) return null
    return {
      invariant: 'no stale anonymous read after a committed write',
      detail: `GET ${request.path} showed ${versions[shown]!.html}, ${Math.round(request.sentAt - versions[due]!.at)} ms after ${versions[due]!.html} was acknowledged`,
    }
  }
}

/** A row of the written component table, as checked against the expected states. */
export interface ComponentRow {
  id: string
  html: string | null
  published_at: Date | null
  published_resource_id: string | null
}

function describe(state: RecordState): string {
  if (state === 'absent') return 'deleted'
  return `${state.published ? 'published' : state.twin ? `draft of ${state.twin}` : 'draft'} "${state.html}"`
}

function matches(row: ComponentRow | undefined, state: RecordState, now: Date): boolean {
  if (state === 'absent') return !row
  if (!row || row.html !== state.html || row.published_resource_id !== state.twin) return false
  return state.published ? row.published_at !== null && row.published_at <= now : row.published_at === null
}

/**
 * No lost write: each record's row matches one of its acceptable states (one,
 * unless a write to it got no answer). A record absent from `rows` is deleted.
 */
export function lostWrites(
  expected: Iterable<[string, RecordState[]]>,
  rows: ComponentRow[],
  now = new Date(),
): Violation[] {
  const byId = new Map(rows.map((row) => [row.id, row]))
  const found: Violation[] = []
  for (const [id, states] of expected) {
    const row = byId.get(id)
    if (states.some((state) => matches(row, state, now))) continue
    const actual = row
      ? `${row.published_resource_id ? `draft of ${row.published_resource_id}` : row.published_at ? 'published' : 'draft'} "${row.html}"`
      : 'missing'
    found.push({
      invariant: 'no lost write',
      detail: `${id}: expected ${states.map(describe).join(' or ')}, the database has ${actual}`,
    })
  }
  return found
}

/** Tables of publishable types: those with the twin link column. */
export async function publishableTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'published_resource_id' ORDER BY table_name`,
  )
  return rows.map((row) => row.table_name)
}

/**
 * Exactly one published twin per record, in SQL: a draft twin points at a
 * record that exists and is published (not itself a draft or scheduled), no
 * published record has two drafts, and no twin is dated in the past (that
 * would be a second published version of the record).
 */
export async function twinViolations(client: pg.Client, tables?: string[]): Promise<Violation[]> {
  const found: Violation[] = []
  for (const table of tables ?? (await publishableTables(client))) {
    const t = `"${table.replace(/"/g, '""')}"`
    const { rows } = await client.query<{ problem: string; id: string; twin: string }>(
      `SELECT 'points at a missing record' AS problem, d.id::text AS id, d.published_resource_id::text AS twin
         FROM ${t} d LEFT JOIN ${t} p ON p.id = d.published_resource_id
        WHERE d.published_resource_id IS NOT NULL AND p.id IS NULL
       UNION ALL
       SELECT 'points at a record that is not published', d.id::text, p.id::text
         FROM ${t} d JOIN ${t} p ON p.id = d.published_resource_id
        WHERE p.published_resource_id IS NOT NULL OR p.published_at IS NULL OR p.published_at > now()
       UNION ALL
       SELECT 'is one of ' || count(*) || ' drafts of one record', min(d.id::text), d.published_resource_id::text
         FROM ${t} d WHERE d.published_resource_id IS NOT NULL
        GROUP BY d.published_resource_id HAVING count(*) > 1
       UNION ALL
       SELECT 'is a twin dated in the past (a second published version)', d.id::text, d.published_resource_id::text
         FROM ${t} d WHERE d.published_resource_id IS NOT NULL AND d.published_at <= now()`,
    )
    for (const row of rows) {
      found.push({
        invariant: 'one published twin per record',
        detail: `${table} ${row.id} (twin ${row.twin}) ${row.problem}`,
      })
    }
  }
  return found
}

/** Drafts and published records counted over every publishable table (for the report). */
export async function publicationCounts(
  client: pg.Client,
  tables?: string[],
): Promise<{ published: number; drafts: number; twins: number }> {
  const totals = { published: 0, drafts: 0, twins: 0 }
  for (const table of tables ?? (await publishableTables(client))) {
    const t = `"${table.replace(/"/g, '""')}"`
    const { rows } = await client.query<{ published: string; drafts: string; twins: string }>(
      `SELECT count(*) FILTER (WHERE published_resource_id IS NULL AND published_at <= now()) AS published,
              count(*) FILTER (WHERE published_resource_id IS NOT NULL OR published_at IS NULL OR published_at > now()) AS drafts,
              count(*) FILTER (WHERE published_resource_id IS NOT NULL) AS twins
         FROM ${t}`,
    )
    totals.published += Number(rows[0]!.published)
    totals.drafts += Number(rows[0]!.drafts)
    totals.twins += Number(rows[0]!.twins)
  }
  return totals
}

/**
 * The HtmlContent collection's totalItems against its rows counted in SQL:
 * anonymous callers see live records (dated now or before, no twin); an
 * admin sees every family once (all rows less the records their drafts shadow).
 */
export async function totalViolations(
  client: pg.Client,
  read: (path: string, admin: boolean) => Promise<{ status: number; totalItems?: number }>,
): Promise<Violation[]> {
  const { rows } = await client.query<{ live: number; admin: number }>(
    `SELECT count(*) FILTER (WHERE published_at <= now() AND published_resource_id IS NULL)::int AS live,
            (count(*) - count(DISTINCT published_resource_id))::int AS admin
       FROM _acb_html_contents`,
  )
  const found: Violation[] = []
  for (const [who, admin] of [
    ['anonymous', false],
    ['admin', true],
  ] as const) {
    const answer = await read('/_api/component/html_contents', admin)
    const expected = admin ? rows[0]!.admin : rows[0]!.live
    if (answer.status !== 200 || answer.totalItems !== expected) {
      found.push({
        invariant: 'collection totals match the rows',
        detail: `${who}: totalItems ${answer.totalItems} (status ${answer.status}), ${expected} in SQL`,
      })
    }
  }
  return found
}

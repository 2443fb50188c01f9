/**
 * The mixed workload of `npm run load`, one ClientWorkload per autocannon
 * connection: every `writeEvery`-th request is an admin write (edit a
 * published component, which creates or updates its draft twin; create a
 * new draft; publish a draft), every other one an anonymous read. Each
 * connection writes only its own records and sends one request at a time,
 * so its writes to a record are ordered and the last acknowledged one is
 * what the database must hold. The recorder collects, over every
 * connection, the states the records must end in, the draft windows the
 * anonymous bodies are checked against, and per kind the statuses and
 * latencies.
 */
import { DRAFT_MARKER, draftLeaks } from './invariants'
import type { LoadRecorder } from './recorder'
import type { LoadPlan, ReadKind, RecordState, RequestKind, WriteKind } from './types'
import { READ_KINDS } from './types'

export interface CannonRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

/** Share of anonymous reads per kind (relative weights). */
const READ_WEIGHTS: Record<ReadKind, number> = { route: 25, manifest: 20, page: 15, component: 30, collection: 10 }

interface Pending {
  kind: RequestKind
  path: string
  sentAt: number
  /** The status a correct server answers. */
  expects: number
  /** The record a component read is of (its id, the path's last segment). */
  record?: string
  /** Applies a 2xx answer (writes). */
  onSuccess?(body: Record<string, unknown>, at: number): void
  /** The request got no answer: its write may or may not have happened. */
  onUnknown?(): void
}

const idOf = (iri: unknown) =>
  String(iri ?? '')
    .split('/')
    .pop() ?? ''

export class ClientWorkload {
  private requests = 0
  private writes = 0
  private pending: Pending | null = null
  /** Published records this connection edits. */
  private readonly published: string[]
  /** This connection's drafts, each with its published twin (null for a new draft). */
  private readonly drafts = new Map<string, string | null>()
  /** The draft of each published record, when it has one. */
  private readonly draftOf = new Map<string, string>()
  private readonly admin: Record<string, string>

  constructor(
    private readonly index: number,
    private readonly plan: LoadPlan,
    private readonly recorder: LoadRecorder,
    private readonly random: () => number = Math.random,
  ) {
    this.published = plan.writable.filter((_, i) => i % plan.connections === index).map((record) => record.id)
    this.admin = { authorization: `Bearer ${plan.adminToken}`, accept: 'application/ld+json' }
  }

  /** The next request of this connection (autocannon's setupRequest). */
  next(now: number): CannonRequest {
    // A new request while one is pending: the pending one got no answer (timeout or reset).
    if (this.pending) {
      this.recorder.unanswered++
      this.recorder.violations.add({
        invariant: 'every request answered as expected',
        detail: `${this.pending.kind} ${this.pending.path}: no answer`,
      })
      this.pending.onUnknown?.()
      this.pending = null
    }
    this.requests++
    // Connections write at different turns, so writes are spread over time.
    const isWrite = (this.requests + this.index) % this.plan.writeEvery === 0
    return isWrite ? this.write(now) : this.read(now)
  }

  /** The answer to the pending request (autocannon's onResponse). */
  answered(status: number, body: string, now: number): void {
    const pending = this.pending
    this.pending = null
    if (!pending) return
    this.recorder.latencies.get(pending.kind)!.push(now - pending.sentAt)
    const statuses = this.recorder.statuses.get(pending.kind)!
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
    if (status >= 500) {
      this.recorder.violations.add({
        invariant: 'no 5xx',
        detail: `${pending.kind} ${pending.path} answered ${status}: ${body.slice(0, 200)}`,
      })
    } else if (status !== pending.expects) {
      this.recorder.violations.add({
        invariant: 'every request answered as expected',
        detail: `${pending.kind} ${pending.path} answered ${status}, expected ${pending.expects}: ${body.slice(0, 200)}`,
      })
    }
    if (!pending.onSuccess) {
      this.recorder.scannedBodies++
      for (const leak of draftLeaks(
        body,
        { path: pending.path, sentAt: pending.sentAt, receivedAt: now },
        this.recorder.windows,
      )) {
        this.recorder.violations.add(leak)
      }
      const stale = pending.record && this.recorder.versions.stale(pending.record, body, pending)
      if (stale) this.recorder.violations.add(stale)
      return
    }
    if (status < 200 || status >= 300) return
    this.recorder.acknowledgedWrites++
    let parsed: Record<string, unknown>
    try {
      parsed = JSON.parse(body) as Record<string, unknown>
    } catch {
      this.recorder.violations.add({
        invariant: 'every request answered as expected',
        detail: `${pending.kind} ${pending.path}: the 2xx body is not JSON`,
      })
      return
    }
    pending.onSuccess(parsed, now)
  }

  /** The time is up: a pending request was cut off (its outcome is unknown, not a fault). */
  finish(): void {
    if (!this.pending) return
    this.recorder.cutOff++
    this.pending.onUnknown?.()
    this.pending = null
  }

  private pick<T>(items: T[]): T {
    return items[Math.floor(this.random() * items.length)]!
  }

  private read(now: number): CannonRequest {
    const total = READ_KINDS.reduce((sum, kind) => sum + READ_WEIGHTS[kind], 0)
    let roll = this.random() * total
    const kind = READ_KINDS.find((k) => (roll -= READ_WEIGHTS[k]) < 0) ?? 'component'
    const path = this.pick(this.plan.reads[kind])
    this.pending = { kind, path, sentAt: now, expects: 200, record: kind === 'component' ? idOf(path) : undefined }
    return { method: 'GET', path, headers: { accept: 'application/ld+json' } }
  }

  private write(now: number): CannonRequest {
    const turn = this.writes++ % 3
    let kind: WriteKind = turn === 0 ? 'edit' : turn === 1 ? 'create' : 'publish'
    if (this.drafts.size >= 6) kind = 'publish'
    if (kind === 'publish' && this.drafts.size === 0) kind = 'create'
    if (kind === 'edit' && this.published.length === 0) kind = 'create'
    const content = `${this.index}-${this.writes}`
    if (kind === 'edit') return this.edit(this.pick(this.published), `<p>${DRAFT_MARKER}${content}</p>`, now)
    if (kind === 'create') return this.create(`<p>${DRAFT_MARKER}${content}</p>`, now)
    return this.publish(this.pick([...this.drafts.keys()]), `<p>PUBLISHED-${content}</p>`, now)
  }

  /** PATCH of a published record: the change goes to its draft twin (created on the first edit). */
  private edit(record: string, html: string, now: number): CannonRequest {
    const path = `${this.plan.componentPath}/${record}`
    const state: RecordState = { html, published: false, twin: record }
    this.pending = {
      kind: 'edit',
      path,
      sentAt: now,
      expects: 200,
      onSuccess: (body, at) => {
        const draft = idOf(body['@id'])
        this.recorder.expect(draft, state)
        this.drafts.set(draft, record)
        this.draftOf.set(record, draft)
        this.recorder.windows.opened(draft, at)
      },
      onUnknown: () => {
        const draft = this.draftOf.get(record)
        if (draft) this.recorder.expectEither(draft, state)
        // A draft of unknown id may exist now: this family is left alone from here on.
        this.forget(record, draft)
      },
    }
    return {
      method: 'PATCH',
      path,
      headers: { ...this.admin, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ html }),
    }
  }

  /** POST of a new draft (no publishedAt). */
  private create(html: string, now: number): CannonRequest {
    const path = this.plan.componentPath
    this.pending = {
      kind: 'create',
      path,
      sentAt: now,
      expects: 201,
      onSuccess: (body, at) => {
        const draft = idOf(body['@id'])
        this.recorder.expect(draft, { html, published: false, twin: null })
        this.drafts.set(draft, null)
        this.recorder.windows.opened(draft, at)
      },
    }
    return {
      method: 'POST',
      path,
      headers: { ...this.admin, 'content-type': 'application/ld+json' },
      body: JSON.stringify({ html }),
    }
  }

  /** PATCH publishedAt (and new content) of a draft: a twin takes the content and the draft goes; a new draft becomes published. */
  private publish(draft: string, html: string, now: number): CannonRequest {
    const path = `${this.plan.componentPath}/${draft}`
    const twin = this.drafts.get(draft) ?? null
    const published: RecordState = { html, published: true, twin: null }
    // From the moment this is sent, the draft may become public: its window closes.
    this.recorder.windows.closed(draft, now)
    this.pending = {
      kind: 'publish',
      path,
      sentAt: now,
      expects: 200,
      onSuccess: (body, at) => {
        const id = idOf(body['@id'])
        this.drafts.delete(draft)
        if (twin && id === twin) this.recorder.versions.acknowledged(twin, html, at)
        if (twin) {
          if (id !== twin)
            this.recorder.violations.add({
              invariant: 'no lost write',
              detail: `publishing ${draft} answered ${id}, not its twin ${twin}`,
            })
          this.recorder.expect(twin, published)
          this.recorder.expect(draft, 'absent')
          this.draftOf.delete(twin)
        } else {
          this.recorder.expect(draft, published)
          this.published.push(draft)
        }
      },
      onUnknown: () => {
        if (twin) {
          this.recorder.expectEither(twin, published)
          this.recorder.expectEither(draft, 'absent')
        } else {
          this.recorder.expectEither(draft, published)
        }
        this.forget(twin ?? draft, draft)
      },
    }
    return {
      method: 'PATCH',
      path,
      headers: { ...this.admin, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ publishedAt: this.plan.past, html }),
    }
  }

  private forget(record: string, draft: string | undefined): void {
    const at = this.published.indexOf(record)
    if (at >= 0) this.published.splice(at, 1)
    if (draft) this.drafts.delete(draft)
    this.draftOf.delete(record)
  }
}

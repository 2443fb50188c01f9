import {
  APIError,
  type CollectionAfterOperationHook,
  type CollectionBeforeOperationHook,
  type PayloadRequest,
  ValidationError,
} from 'payload'
import { emitWriteEvent } from '../../core/events/index.js'
import { HttpError, ViolationError } from '../../hydra/errors.js'
import { RefusedRequest } from '../../hydra/payloadApiErrors.js'
import type { PublishContext } from './context.js'
import { inTransition } from './events.js'
import type { ResolvedPublishable } from './options.js'
import { isPublished } from './state.js'
import { updateRecord } from './stateMachine.js'
import { assertPublishable } from './validation.js'
import { type ExpectedVersion, expectedFromIfMatch, PreconditionFailed, versionOf } from '../../hydra/version.js'

/**
 * The state machine on Payload's own APIs: REST (what the admin panel sends),
 * GraphQL if mounted, and the Local API. A write goes through it when it is
 * made *as an editor*: Payload checks access (every REST and GraphQL call;
 * a Local API call with `overrideAccess: false`) and the user matches the
 * publish permission. Then, as on the JSON-LD API:
 * - an update of a live record creates or updates its draft (the live record
 *   does not change; the answer is the draft);
 * - an update of a draft setting publishedAt to now or past publishes it (a
 *   twin takes the content, the draft goes; the answer is the live record);
 * - publishedAt null on a live record is a change like any other (the
 *   contract's table): it goes to the draft, the record stays live (there is
 *   no unpublish by PATCH);
 * - a date (publish or schedule) is refused (400) while the publish
 *   validation group fails.
 * Callers without the permission are held by the access and field rules of
 * config.ts and fields.ts; calls that override access (seed, fixtures,
 * jobs, the service's own writes) are trusted and write what they are told.
 */

type Resolved = {
  slug: string
  shortName: string
  names: ResolvedPublishable
  mayPublish: (user: PayloadRequest['user']) => boolean
}

type BeforeOperationArg = Parameters<CollectionBeforeOperationHook>[0]
type UpdateManyArgs = Extract<BeforeOperationArg, { operation: 'update' }>['args']
type UpdateByIDArgs = Extract<Parameters<CollectionAfterOperationHook>[0], { operation: 'updateByID' }>['args']
/** Payload's updateByID calls the beforeOperation hooks with operation 'update' too, passing its own arguments (an id). */
type UpdateArgs = UpdateManyArgs | UpdateByIDArgs

const isUpdateByID = (args: UpdateArgs): args is UpdateByIDArgs => 'id' in args && args.id !== undefined

const asEditor = (args: { overrideAccess?: boolean; req: PayloadRequest }, resolved: Resolved): boolean =>
  args.overrideAccess !== true &&
  Boolean(args.req.user) &&
  resolved.mayPublish(args.req.user) &&
  !inTransition(args.req)

/** The state machine's refusals in Payload's error shapes (the admin shows a ValidationError on its fields). */
function toPayloadError(error: unknown, slug: string, req: PayloadRequest): unknown {
  if (error instanceof ViolationError) {
    return new ValidationError({
      collection: slug,
      errors: error.violations.map((v) => ({ path: v.propertyPath, message: v.message })),
      req,
    })
  }
  if (error instanceof PreconditionFailed) {
    // 412 with what changed and when; the admin's form takes the field error under _cwaConflict
    // (admin/ConflictDialog.tsx: CONFLICT_PATH) and shows its dialog, keeping the editor's text.
    return new RefusedRequest(error.message, 412, {
      errors: [{ path: '_cwaConflict', message: error.message }],
      conflict: error.conflict,
    })
  }
  if (error instanceof HttpError)
    return error.status < 500
      ? new RefusedRequest(error.message, error.status)
      : new APIError(error.message, error.status, null, true)
  return error
}

/**
 * What the writer of a REST update read, for the record the request addresses (not for the writes its
 * hooks make with the same request): its If-Match, else, for the admin panel's form (multipart, the
 * document as loaded), the form's `updatedAt`. Null: no check, as before.
 */
function expectedOf(args: UpdateByIDArgs, id: string): ExpectedVersion | null {
  const req = args.req
  let path = ''
  try {
    path = new URL(req.url ?? '', 'http://x').pathname
  } catch {
    return null
  }
  if (req.payloadAPI !== 'REST' || !path.endsWith(`/${id}`)) return null
  const header = expectedFromIfMatch(req.headers?.get?.('if-match'))
  if (header) return header
  const form = (req.headers?.get?.('content-type') ?? '').startsWith('multipart/form-data')
  const read = args.data?.updatedAt
  const version = form && typeof read === 'string' ? versionOf({ id, updatedAt: read }) : null
  return version ? [version] : null
}

/**
 * A REST read or update of one record answers with that record's version as ETag, for a later If-Match.
 * An update redirected to a draft answers with the draft: its version is the one to send back (the
 * outermost update runs its hook last, so the state machine's own writes do not decide).
 */
function tagVersion(args: { req: PayloadRequest }, doc: Record<string, unknown> | null, operation: string): void {
  const req: PayloadRequest & { responseHeaders?: Headers } = args.req
  const version = req.payloadAPI === 'REST' ? versionOf(doc) : null
  if (!version) return
  let path = ''
  try {
    path = new URL(req.url ?? '', 'http://x').pathname
  } catch {
    return
  }
  // A read: only the record the URL names (hooks may read others with the same request).
  if (operation === 'findByID' && !path.endsWith(`/${String(doc!.id)}`)) return
  req.responseHeaders ??= new Headers()
  req.responseHeaders.set('ETag', `"${version}"`)
}

async function throughStateMachine(ctx: PublishContext, id: string, data: Record<string, unknown>): Promise<string> {
  const doc = await updateRecord(ctx, id, data)
  return String(doc.id)
}

export function payloadApiHooks(resolved: Resolved): {
  beforeOperation: CollectionBeforeOperationHook
  afterOperation: CollectionAfterOperationHook
} {
  const contextOf = (req: PayloadRequest): PublishContext => ({
    payload: req.payload,
    req,
    slug: resolved.slug,
    shortName: resolved.shortName,
    names: resolved.names,
    permitted: true,
  })

  const beforeOperation: CollectionBeforeOperationHook = async (hook) => {
    if ((hook.operation !== 'create' && hook.operation !== 'update') || !asEditor(hook.args, resolved)) return hook.args
    const ctx = contextOf(hook.args.req)
    const data = { ...(hook.args.data ?? {}) }
    if (hook.operation === 'create') {
      try {
        // A date publishes or schedules at once: the publish validation group applies first.
        const at = data[resolved.names.publishedAt]
        if (at != null && at !== '') assertPublishable(ctx, data)
        return hook.args
      } catch (error) {
        throw toPayloadError(error, resolved.slug, hook.args.req)
      }
    }
    const args: UpdateArgs = hook.args
    try {
      if (isUpdateByID(args)) {
        // The transition is done; Payload's own update then only reads back the record the editor now sees.
        const target = await throughStateMachine(
          { ...ctx, expected: expectedOf(args, String(args.id)) },
          String(args.id),
          data,
        )
        return { ...args, id: target, data: {} }
      }
      // A bulk update: each matching record (as the editor may read them) takes its own transition.
      const matching = await args.req.payload.find({
        collection: resolved.slug,
        where: args.where,
        depth: 0,
        pagination: false,
        overrideAccess: false,
        req: args.req,
        select: { id: true },
      })
      const targets: string[] = []
      for (const doc of matching.docs as Array<{ id: unknown }>)
        targets.push(await throughStateMachine(ctx, String(doc.id), data))
      return {
        ...args,
        where: { id: { in: targets.length > 0 ? targets : ['00000000-0000-0000-0000-000000000000'] } },
        data: {},
      }
    } catch (error) {
      throw toPayloadError(error, resolved.slug, args.req)
    }
  }

  /** A record an editor creates live is a publication, as on the JSON-LD API. */
  const afterOperation: CollectionAfterOperationHook = async (hook) => {
    if (hook.operation === 'findByID' || hook.operation === 'updateByID')
      tagVersion(hook.args, hook.result, hook.operation)
    if (hook.operation !== 'create' || !asEditor(hook.args, resolved)) return hook.result
    const doc = hook.result
    if (doc?.id && isPublished(doc, resolved.names)) {
      await emitWriteEvent(hook.args.req, { type: 'publish', collection: resolved.slug, id: String(doc.id) })
    }
    return hook.result
  }

  return { beforeOperation, afterOperation }
}

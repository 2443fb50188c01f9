import type { Payload } from 'payload'
import type { WriteEvent } from '../../../core/events/index.js'
import { getRegistry } from '../../../core/registry.js'
import { relationId } from '../../../core/utils/relations.js'
import { publishableOf } from '../../publishable/index.js'

/**
 * The tag of every anonymous answer the route gates decided (routableSecurity
 * set): which records live routes reach is shared state no answer's body
 * shows, so a gated answer depends on all of it (policy.ts notes it).
 */
export const ROUTE_REACH_TAG = 'cwa:routes:reach'

/** The ids of a relationship value (one, many, polymorphic), sorted: compared before and after a write. */
function idsOf(value: unknown): string {
  const values = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]
  return values
    .map((item) => relationId((item as { value?: unknown })?.value ?? item) ?? '')
    .sort()
    .join(',')
}

/**
 * Whether a write can change what live routes reach: anything written to
 * routes, pages, page data, positions or groups, and a component deleted
 * (not a draft twin) or given other groups of its own (nested regions). A
 * component's content, drafts and publications leave it as it is.
 */
function changesReach(payload: Payload, event: WriteEvent): boolean {
  if (['routes', 'pages', 'component_positions', 'component_groups'].includes(event.collection)) return true
  const resource = getRegistry(payload.config).bySlug(event.collection)
  const kind = resource?.meta.kind
  if (kind === 'pageData') return true
  if (kind !== 'component') return false
  // A draft twin (publishing deletes it) is placed nowhere: positions hold the published record.
  const names = publishableOf(resource!)
  if (event.type === 'delete') return !(names && relationId(event.doc?.[names.publishedResource]))
  if (event.type !== 'update') return false
  // An update without the state before cannot be judged.
  return !event.previousDoc || idsOf(event.doc?.componentGroups) !== idsOf(event.previousDoc.componentGroups)
}

/** The reach tag when one of the events can change it (for a store of answers to drop what depended on it). */
export function reachTagsOf(payload: Payload, events: readonly WriteEvent[]): string[] {
  return events.some((event) => changesReach(payload, event)) ? [ROUTE_REACH_TAG] : []
}

import {
  type CollectionBeforeChangeHook,
  type CollectionBeforeOperationHook,
  type FieldHook,
  ValidationError,
} from 'payload'
import type { CoreContext } from '../context.js'
import { isUuid } from '../registry.js'
import { groupOfPosition, lockGroupOrder, placePosition } from '../utils/groupOrder.js'
import { relationId } from '../utils/relations.js'

/**
 * The order rule of positions (utils/groupOrder.ts) on every API: Payload
 * runs these hooks for the JSON-LD API, Payload REST and GraphQL, the admin
 * panel and the Local API.
 */

/** sortValue on create: none (or null) is "after the last", not the field's default 0 ("first"). */
export const sortValueOnCreate: FieldHook = ({ operation, siblingData }) =>
  operation === 'create' && (siblingData as Record<string, unknown> | undefined)?.sortValue == null ? null : undefined

/**
 * An update of one position locks its group's order before Payload reads
 * the position (inside the operation's transaction), so the document it
 * reads, and writes back whole, is the one the previous writer committed.
 */
export const positionOrderBeforeOperation =
  (_ctx: CoreContext): CollectionBeforeOperationHook =>
  async ({ args, operation, req }) => {
    const id = operation === 'update' && 'id' in args ? (args as { id?: unknown }).id : undefined
    if (!isUuid(id)) return args
    const group = await groupOfPosition(req, id.toLowerCase())
    if (group) await lockGroupOrder(req, [group])
    return args
  }

/** Places the position in its group's order (the value it asks for, the others shifted) before it is written. */
export const positionOrderBeforeChange =
  (_ctx: CoreContext): CollectionBeforeChangeHook =>
  async ({ data, operation, originalDoc, req }) => {
    const group = relationId(data?.componentGroup ?? originalDoc?.componentGroup)
    // Not a group id: the relationship's own validation refuses it.
    if (!isUuid(group)) return data
    const sent = data?.sortValue
    if (typeof sent === 'number' && !Number.isInteger(sent))
      throw new ValidationError({ errors: [{ path: 'sortValue', message: 'This value should be a whole number.' }] })
    const update = operation === 'update' && originalDoc?.id != null
    const previousGroup = update ? relationId(originalDoc.componentGroup) : null
    await lockGroupOrder(req, [group, previousGroup])
    // Payload hands an update the stored value when none was sent: only a different one is a move.
    const sortValue = await placePosition(req, {
      id: update ? String(originalDoc.id) : null,
      group,
      sortValue: typeof sent === 'number' ? sent : null,
      move: !update || previousGroup !== group || sent !== Number(originalDoc.sortValue),
    })
    return { ...data, sortValue }
  }

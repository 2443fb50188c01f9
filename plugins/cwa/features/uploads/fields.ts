import type { CwaResourceMeta } from '../../core/types.js'
import { type ResolvedField, resolveFields } from './options.js'

const cache = new WeakMap<object, ResolvedField[]>()

/** The resolved file fields of a type (none when it declares no `uploadable`). */
export function fieldsOf(meta: Pick<CwaResourceMeta, 'shortName' | 'uploadable'>): ResolvedField[] {
  let fields = cache.get(meta)
  if (!fields) {
    fields = resolveFields(meta.shortName, meta.uploadable)
    cache.set(meta, fields)
  }
  return fields
}

type Req = NonNullable<Parameters<NonNullable<CwaResourceMeta['uploadFilters']>>[1]>

/**
 * The request when the write or read came over HTTP (it has a Host header),
 * else null: a Local API call (a seed, a command, a job) has a request
 * object too, with no headers of a client.
 */
export const webRequest = (req: Req | null | undefined): Req | null => (req?.headers?.get?.('host') ? req : null)

/** The filters of a field for this request: the declared ones, then the type's dynamic ones appended (rule 3). */
export function filtersOf(
  meta: Pick<CwaResourceMeta, 'uploadFilters'>,
  field: ResolvedField,
  req: Req | null | undefined,
): string[] {
  return [...field.imagineFilters, ...(meta.uploadFilters?.(field.name, webRequest(req)) ?? [])]
}

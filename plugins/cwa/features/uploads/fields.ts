import type { CwaResourceMeta } from '../../core/types'
import { type ResolvedField, resolveFields } from './options'

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

/** The filters of a field for this request: the declared ones, then the type's dynamic ones appended (rule 3). */
export function filtersOf(meta: Pick<CwaResourceMeta, 'uploadFilters'>, field: ResolvedField, req: Parameters<NonNullable<CwaResourceMeta['uploadFilters']>>[1]): string[] {
  return [...field.imagineFilters, ...(meta.uploadFilters?.(field.name, req) ?? [])]
}

import { relationCollection, relationId } from '../../../core/utils/relations.js'
import type { RecordRef } from './descendants.js'

/** The page or page data record a route document points at, or null (a redirect). */
export function routeTarget(route: Record<string, unknown>): RecordRef | null {
  const page = relationId(route.page)
  if (page) return { kind: 'pages', id: page }
  const data = relationId(route.pageData)
  const kind = relationCollection(route.pageData)
  return data && kind ? { kind, id: data } : null
}

/**
 * A record list's default query parameters as rows an editor types (`order[title]` = `asc`) and back: the API's
 * JSON object (`{"order": {"title": "asc"}}`, lists as `key[]`) flattened to query-string names, and rebuilt.
 */
export type QueryRow = { name: string; value: string }

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

export function rowsOf(value: unknown, prefix = ''): QueryRow[] {
  if (value === null || value === undefined) return prefix ? [{ name: prefix, value: '' }] : []
  if (Array.isArray(value)) return value.flatMap((item) => rowsOf(item, `${prefix}[]`))
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) =>
      rowsOf(item, prefix ? `${prefix}[${key}]` : key),
    )
  return [{ name: prefix, value: String(value) }]
}

/** `order[title]` -> ['order', 'title']; `tags[]` -> ['tags', '']; null when the name is not one. */
function pathOf(name: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name.trim())
  if (!match) return null
  return [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)]
}

/** The object the rows name (rows with no name left out); null when there are none. */
export function objectOf(rows: readonly QueryRow[]): Record<string, Json> | null {
  const root: Record<string, Json> = {}
  for (const row of rows) {
    const path = pathOf(row.name)
    if (!path) continue
    let node: Record<string, Json> | Json[] = root
    path.forEach((key, index) => {
      const last = index === path.length - 1
      const nextIsList = path[index + 1] === ''
      if (Array.isArray(node)) {
        if (last) node.push(row.value)
        else {
          const child: Record<string, Json> | Json[] = nextIsList ? [] : {}
          node.push(child)
          node = child
        }
        return
      }
      if (last) node[key] = row.value
      else {
        const existing: Json | undefined = node[key]
        const child: Record<string, Json> | Json[] =
          existing && typeof existing === 'object' ? existing : nextIsList ? [] : {}
        node[key] = child
        node = child
      }
    })
  }
  return Object.keys(root).length > 0 ? root : null
}

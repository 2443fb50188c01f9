/** The id in a Payload relationship value: an id, a populated doc, or {relationTo, value}. */
export function relationId(value: unknown): string | null {
  if (value == null || value === '') return null
  if (typeof value === 'string' || typeof value === 'number') return String(value)
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>
    if ('relationTo' in v) return relationId(v.value)
    if ('id' in v) return relationId(v.id)
  }
  return null
}

/** The target collection of a polymorphic value, or the field's single target. */
export function relationCollection(value: unknown, fallback?: string): string | null {
  if (value && typeof value === 'object' && 'relationTo' in (value as object)) {
    return String((value as { relationTo: string }).relationTo)
  }
  return fallback ?? null
}

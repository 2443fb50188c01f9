/**
 * Whether a value is a plain object (an object literal, or one made with Object.create(null)), whatever realm made
 * it: its prototype is an `Object.prototype` (one whose own prototype is null), not necessarily this realm's. An
 * app's options may come from another realm (a vm context: a test runner's sandbox, an edge runtime), and comparing
 * with this realm's Object.prototype would take them for something else and skip their checks.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === null || Object.getPrototypeOf(proto) === null
}

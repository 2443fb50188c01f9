/**
 * Key schemas of the plugin options. Each part of the library (the core, the
 * session layer, every feature) exports the keys it accepts next to its
 * resolver; the assembly (plugins/cwa/options.ts) checks the given options
 * against their union, so a misspelt key stops the start instead of being
 * silently ignored.
 */
import { isPlainObject } from './utils/plainObject.js'

/**
 * The key schema of an options type: every key of `T`, each `true` (any
 * value is accepted: a scalar, a list, a function, or a map of user-defined
 * keys such as `roleHierarchy`) or a nested schema (the value is a plain
 * object whose keys are checked too). Typed against the options interface,
 * a schema that forgets a key or names one the type lacks does not compile.
 */
export type OptionKeys<T> = { [K in keyof T]-?: true | NestedKeys<NonNullable<T[K]>> }
type NestedKeys<V> = V extends (...args: never[]) => unknown
  ? never
  : V extends readonly unknown[]
    ? never
    : V extends object
      ? OptionKeys<V>
      : never

/** What the checker walks: the runtime shape of any OptionKeys. */
export type KeySchema = { readonly [key: string]: true | KeySchema }

/**
 * The schemas of several parts (the core, each feature...) as one. A key
 * belongs to one part: declared by two, it stops the config, naming both.
 * A nested schema may be shared (`enabledComponents`: one switch per
 * feature with a built-in component type): the parts' keys are then joined
 * under it, by the same rule.
 */
export function joinKeySchemas(parts: ReadonlyArray<{ name: string; keys: KeySchema }>): KeySchema {
  const owners = new Map<string, string>()
  const joinInto = (into: Record<string, true | KeySchema>, schema: KeySchema, part: string, prefix: string) => {
    for (const [key, entry] of Object.entries(schema)) {
      const path = join(prefix, key)
      const existing = into[key]
      if (existing === undefined) {
        into[key] = entry === true ? true : joinInto({}, entry, part, path)
        owners.set(path, part)
      } else if (existing === true || entry === true) {
        throw new Error(`cwa options: the key ${path} is declared by both ${owners.get(path)} and ${part}`)
      } else {
        into[key] = joinInto({ ...existing }, entry, part, path)
      }
    }
    return into
  }
  return parts.reduce<Record<string, true | KeySchema>>((into, { name, keys }) => joinInto(into, keys, name, ''), {})
}

export interface UnknownOptionKey {
  /** Full dotted path of the key (`user.emailVerfication`). */
  path: string
  /** Full path of the closest known key, when one is close enough. */
  suggestion: string | null
  /** Known keys at the same level (for the message when nothing is close). */
  known: string[]
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key)

/**
 * Every key of `value` the schema does not know, depth first. A value that
 * is not a plain object where the schema expects one is left alone: this
 * checks names, not values.
 */
export function findUnknownOptionKeys(
  value: unknown,
  schema: KeySchema,
  root: KeySchema = schema,
  prefix = '',
): UnknownOptionKey[] {
  if (!isPlainObject(value)) return []
  const unknown: UnknownOptionKey[] = []
  for (const key of Object.keys(value)) {
    const entry = Object.hasOwn(schema, key) ? schema[key] : undefined
    if (entry === undefined) {
      unknown.push({
        path: join(prefix, key),
        suggestion: suggest(key, schema, root, prefix),
        known: Object.keys(schema),
      })
    } else if (entry !== true) {
      unknown.push(...findUnknownOptionKeys(value[key], entry, root, join(prefix, key)))
    }
  }
  return unknown
}

/**
 * Throws when `value` holds a key the schema does not know. The message names
 * every unknown key by its full path, with the closest known key:
 * `cwa options: unknown key user.emailVerfication (did you mean user.emailVerification?)`.
 */
export function assertKnownOptionKeys(value: unknown, schema: KeySchema, source = 'cwa options'): void {
  const unknown = findUnknownOptionKeys(value, schema)
  if (unknown.length === 0) return
  const described = unknown.map(describe).join('; ')
  throw new Error(`${source}: unknown ${unknown.length === 1 ? 'key' : 'keys'} ${described}`)
}

function describe({ path, suggestion, known }: UnknownOptionKey): string {
  if (suggestion) return `${path} (did you mean ${suggestion}?)`
  const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : ''
  return `${path} (known keys${parent ? ` of ${parent}` : ''}: ${known.join(', ') || 'none'})`
}

/**
 * The closest known key: the nearest name at the same level when it is close
 * enough, else the same name (ignoring case) anywhere in the schema, else
 * the nearest name anywhere.
 */
function suggest(key: string, level: KeySchema, root: KeySchema, prefix: string): string | null {
  const near = closest(
    key,
    Object.keys(level).map((name) => ({ name, path: join(prefix, name) })),
  )
  if (near) return near
  return closest(key, allPaths(root))
}

function closest(key: string, candidates: Array<{ name: string; path: string }>): string | null {
  let best: { path: string; distance: number } | null = null
  for (const { name, path } of candidates) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase())
    if (distance <= tolerance(key, name) && (!best || distance < best.distance)) best = { path, distance }
  }
  return best?.path ?? null
}

/** About one edit in three characters, at least one. */
const tolerance = (a: string, b: string) => Math.max(1, Math.floor(Math.max(a.length, b.length) / 3))

function allPaths(schema: KeySchema, prefix = ''): Array<{ name: string; path: string }> {
  return Object.entries(schema).flatMap(([name, entry]) => [
    { name, path: join(prefix, name) },
    ...(entry === true ? [] : allPaths(entry, join(prefix, name))),
  ])
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) rows[0][j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1)
    }
  }
  return rows[a.length][b.length]
}

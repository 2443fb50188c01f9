import type { KeySchema } from './optionKeys.js'

/**
 * One declaration per option group (issue 38). A part of the library (the
 * core, a feature, the commands) declares its options once, each with its
 * type as the docs show it, its default and its doc:
 *
 *   export const readModelOptions = defineOptions({
 *     readModel: group('Anonymous reads stored in PostgreSQL.', {
 *       maxEntries: option.number({ default: 20_000, doc: 'Stored answers at most.', resolve: checkRange }),
 *     }),
 *   })
 *
 * and everything else is derived from it: the input type (`OptionsInput`,
 * every key optional, which the part adds to `CwaPluginOptions` by
 * declaration merging), the resolved type (`OptionsResolved`, defaults
 * applied: its part of `ResolvedCwaOptions`), the key schema of the
 * unknown-key check (`keys`), the resolver (`resolve`) and the options
 * reference of docs/configuration.md (npm run docs:options).
 *
 * An option without `resolve` resolves to the given value, or its default
 * when none is given (`given ?? default`). One with `resolve` gets the
 * given value as it came (undefined when absent) and the default, and
 * returns the resolved value or throws with its own message: a check, an
 * environment variable's name in the message, a value derived from the
 * given one. A check across the group's options (one option needs another)
 * is the declaration's `finish`, which may also add derived keys.
 */

/** One option: its input type `In` (what an app may give), its resolved type `Out`. */
export interface Option<In, Out> {
  readonly kind: 'option'
  /** Its type as the docs show it. */
  readonly type: string
  /** Its default as the docs show it (`@default`): the value in backticks, or the declaration's words. */
  readonly defaultText: string
  readonly doc: string
  // A method, so that every Option<In, Out> is an Option<never, unknown> (what a spec holds).
  resolve(given: In | undefined): Out
}

/** A plain object of options: its keys are checked too (`cors.maxAge`). */
export interface OptionGroup<S extends OptionSpec> {
  readonly kind: 'group'
  readonly doc: string
  readonly options: S
}

/** The options of a part, by key: options and groups of options. */
export type OptionSpec = { readonly [key: string]: Option<never, unknown> | OptionGroup<OptionSpec> }

/** What an app may give: every key optional. */
export type InputOf<S> = {
  -readonly [K in keyof S]?: S[K] extends OptionGroup<infer C>
    ? InputOf<C>
    : S[K] extends Option<infer In, unknown>
      ? In
      : never
}

/** What the resolver returns: every key present, defaults applied. */
export type ResolvedOf<S> = {
  -readonly [K in keyof S]: S[K] extends OptionGroup<infer C>
    ? ResolvedOf<C>
    : S[K] extends Option<never, infer Out>
      ? Out
      : never
}

/** The key schema of a spec (typed, so that the assembly checks it covers every key of CwaPluginOptions). */
export type KeysOf<S> = { -readonly [K in keyof S]: S[K] extends OptionGroup<infer C> ? KeysOf<C> : true }

/** A part's declared options: what a feature's declaration carries (`options`), with the spec for the docs. */
export interface DeclaredOptions<S extends OptionSpec, Resolved extends object> {
  readonly spec: S
  readonly keys: KeysOf<S>
  /** Its part of `ResolvedCwaOptions` from the plugin options (only its own keys are read). */
  resolve(options: object): Resolved
}

/** The input type of a part's options: `interface CwaPluginOptions extends OptionsInput<typeof x> {}`. */
export type OptionsInput<D> = D extends DeclaredOptions<infer S, object> ? InputOf<S> : never
/** The resolved type of a part's options: `interface ResolvedCwaOptions extends OptionsResolved<typeof x> {}`. */
export type OptionsResolved<D> = D extends DeclaredOptions<OptionSpec, infer R> ? R : never

interface OptionInit<In, Out> {
  doc: string
  default: Out
  /** The default in the docs when the value says too little (a function, a derived value). */
  defaultText?: string
  /** The given value (undefined when absent) and the default -> the resolved value; throws to refuse it. */
  resolve?: (given: In | undefined, fallback: Out) => Out
}

/** `null` -> `null`, `'x'` -> `"x"`, a list or map as JSON; undefined -> `unset`. */
export function formatDefault(value: unknown): string {
  if (value === undefined) return 'unset'
  if (typeof value === 'function') return 'a function'
  return JSON.stringify(value)
}

function make<In, Out>(type: string, init: OptionInit<In, Out>): Option<In, Out> {
  const { doc, resolve } = init
  const fallback = init.default
  return {
    kind: 'option',
    type,
    doc,
    defaultText: init.defaultText ?? `\`${formatDefault(fallback)}\``,
    resolve: resolve
      ? (given: In | undefined) => resolve(given, fallback)
      : (given: In | undefined) => (given ?? fallback) as Out,
  }
}

/**
 * An option of any type: `option<CompatProfile | null>({ type: "'cwa-nuxt' | null", default: null, doc })`.
 * `In` is what an app gives, `Out` (default `In`) what the resolver returns.
 */
export function option<In, Out = In>(init: OptionInit<In, Out> & { type: string }): Option<In, Out> {
  return make(init.type, init)
}
option.number = <Out extends number | null = number>(init: OptionInit<number, Out>) => make<number, Out>('number', init)
option.boolean = (init: OptionInit<boolean, boolean>) => make<boolean, boolean>('boolean', init)
option.string = <Out extends string | null = string>(init: OptionInit<string, Out>) => make<string, Out>('string', init)

/** A nested object of options (`readModel: group('…', { enabled: …, maxEntries: … })`). */
export function group<S extends OptionSpec>(doc: string, options: S): OptionGroup<S> {
  return { kind: 'group', doc, options }
}

function keysOf(spec: OptionSpec): KeySchema {
  return Object.fromEntries(
    Object.entries(spec).map(([key, entry]) => [key, entry.kind === 'group' ? keysOf(entry.options) : true]),
  )
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function resolveSpec(spec: OptionSpec, given: unknown): Record<string, unknown> {
  const values = isPlainObject(given) ? given : {}
  return Object.fromEntries(
    Object.entries(spec).map(([key, entry]) => [
      key,
      entry.kind === 'group'
        ? resolveSpec(entry.options, values[key])
        : (entry.resolve as (given: unknown) => unknown)(values[key]),
    ]),
  )
}

/**
 * A part's options, declared once. `finish` (optional) gets the resolved
 * values and the given ones: it checks what depends on several options and
 * may add derived keys (its return is then the resolved type).
 */
export function defineOptions<S extends OptionSpec>(spec: S): DeclaredOptions<S, ResolvedOf<S>>
export function defineOptions<S extends OptionSpec, Resolved extends object>(
  spec: S,
  finish: (resolved: ResolvedOf<S>, given: InputOf<S>) => Resolved,
): DeclaredOptions<S, Resolved>
export function defineOptions(
  spec: OptionSpec,
  finish?: (resolved: Record<string, unknown>, given: object) => object,
): { spec: OptionSpec; keys: KeySchema; resolve(options: object): object } {
  return {
    spec,
    keys: keysOf(spec),
    resolve(options: object): object {
      const resolved = resolveSpec(spec, options)
      return finish ? finish(resolved, options) : resolved
    },
  }
}

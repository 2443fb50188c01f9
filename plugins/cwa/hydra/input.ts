import type { HydraContext } from './context.js'

/**
 * An endpoint's request body, declared once (`Endpoint.input`): a small
 * JSON Schema subset written with the `input` builder below. The pipeline
 * checks a body against it before the handler runs (inputCheck.ts), the
 * handler's `request.body` type is inferred from it (`InputOf`), and the
 * OpenAPI document's request body is generated from it (`inputJsonSchema`).
 *
 * A refused body answers what the hand-written checks answered: each node
 * may carry its own refusal (`refuse`, or per keyword `refuseFor`), else the
 * nearest enclosing node's, else a violation at the node's path.
 */

/** The keywords a body can fail, in the order a node checks them. */
export type InputKeyword =
  | 'type'
  | 'required'
  | 'enum'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'format'
  | 'minItems'
  | 'maxItems'
  | 'oneOf'
  | 'check'

/**
 * How a failed check is answered: a 400 with this detail, or a 422 with one
 * violation at `path`, else at the path of the node that declares the
 * refusal (a message may name the path: `positions[3] must be...`).
 */
export type InputRefusal =
  { badRequest: string } | { message: string | ((path: string) => string); code: string | null; path?: string }

/** What every node may say besides its type. */
interface NodeOptions {
  description?: string
  /** `null` is accepted too (documented as `type: [x, 'null']`). */
  nullable?: boolean
  /** How any failed check of this node (or of a node inside it without its own) is answered. */
  refuse?: InputRefusal
  /** How one keyword's failure is answered, when it differs from `refuse`. */
  refuseFor?: Partial<Record<InputKeyword, InputRefusal>>
  /**
   * A rule on the value beyond its JSON Schema keywords, checked last (a date in the future, the IRI of a
   * component group): documented by the description, refused as the keyword `check`.
   */
  // A method, so that a rule may take the node's own value type (`(value: string) => ...`).
  check?(value: unknown, ctx: HydraContext): boolean
}

export interface StringOptions extends NodeOptions {
  minLength?: number
  maxLength?: number
  pattern?: string
  /** `date-time`: a value `Date` reads; `iri-reference` and `password` are documentation only. */
  format?: 'date-time' | 'iri-reference' | 'password'
  enum?: readonly string[]
  writeOnly?: boolean
}

export interface BooleanOptions extends NodeOptions {
  default?: boolean
  /** `[true]`: only true is accepted (a flag that must be set). */
  enum?: readonly [true]
}

export interface NumberOptions extends NodeOptions {
  minimum?: number
  maximum?: number
}

export interface ArrayOptions extends NodeOptions {
  minItems?: number
  maxItems?: number
  /** The items are checked after both bounds (by default between them: too few, then each item, then too many). */
  itemsLast?: boolean
}

export interface ObjectOptions<R extends string> extends NodeOptions {
  required?: readonly R[]
  /** Properties it does not declare are accepted (and readable) when given a schema for them. */
  additionalProperties?: InputNode<unknown>
  /** The OpenAPI component the document names it by (`#/components/schemas/<name>`), when it has one. */
  name?: string
  /**
   * The order its properties are checked in, when it is not the declared (documented) order. A property it
   * leaves out is declared (documented, readable) but not checked by the pipeline: its handler checks it, after
   * a rule of its own that must come first (a new block's componentGroup, after the fields its type allows).
   */
  checkOrder?: readonly string[]
}

export interface OneOfOptions extends NodeOptions {
  /**
   * A branch's required property sent as `null` counts as not sent when the branch is chosen (`{page: null,
   * pageData: IRI}` is the pageData branch): for a body whose unused alternatives may be sent as null.
   */
  absentWhenNull?: boolean
}

/** One node of an input schema; `T` is the type of a value it accepts (never present at run time). */
export type InputNode<T> = (
  | ({ kind: 'string' } & StringOptions)
  | ({ kind: 'number' | 'integer' } & NumberOptions)
  | ({ kind: 'boolean' } & BooleanOptions)
  | ({ kind: 'array'; items: InputNode<unknown> } & ArrayOptions)
  | ({ kind: 'object'; properties: Record<string, InputNode<unknown>> } & ObjectOptions<string>)
  | ({ kind: 'oneOf'; branches: ReadonlyArray<InputNode<unknown> & { kind: 'object' }> } & OneOfOptions)
) & { readonly __value?: T }

/** The value type a node accepts: what the handler's `request.body` is. */
export type InputOf<N> = N extends InputNode<infer T> ? T : unknown

type Nullable<T, O> = O extends { nullable: true } ? T | null : T

type ObjectValue<P extends Record<string, InputNode<unknown>>, R extends keyof P> = {
  readonly [K in R]: InputOf<P[K]>
} & { readonly [K in Exclude<keyof P, R>]?: InputOf<P[K]> }

type Flat<T> = { [K in keyof T]: T[K] }

/** The builder: `input.object({ username: input.string({ minLength: 1 }) }, { required: ['username'] })`. */
export const input = {
  string: <const O extends StringOptions>(options?: O): InputNode<Nullable<string, O>> => ({
    kind: 'string',
    ...options,
  }),
  number: <const O extends NumberOptions>(options?: O): InputNode<Nullable<number, O>> => ({
    kind: 'number',
    ...options,
  }),
  integer: <const O extends NumberOptions>(options?: O): InputNode<Nullable<number, O>> => ({
    kind: 'integer',
    ...options,
  }),
  boolean: <const O extends BooleanOptions>(
    options?: O,
  ): InputNode<Nullable<O extends { enum: readonly [true] } ? true : boolean, O>> => ({
    kind: 'boolean',
    ...options,
  }),
  array: <I extends InputNode<unknown>, const O extends ArrayOptions>(
    items: I,
    options?: O,
  ): InputNode<Nullable<ReadonlyArray<InputOf<I>>, O>> => ({ kind: 'array', items, ...options }),
  object: <
    P extends Record<string, InputNode<unknown>>,
    R extends keyof P & string = never,
    const O extends ObjectOptions<R> = ObjectOptions<R>,
  >(
    properties: P,
    options?: O & ObjectOptions<R>,
  ): InputNode<Nullable<Flat<ObjectValue<P, R>>, O>> & { kind: 'object' } => ({
    kind: 'object',
    properties,
    ...options,
  }),
  /**
   * Exactly one of these objects, told apart by their required properties (`{iris}` or `{all}`): a body
   * holding those of several fails `oneOf`, one holding none fails `required` (its path: the node's).
   */
  oneOf: <B extends ReadonlyArray<InputNode<unknown> & { kind: 'object' }>>(
    branches: B,
    options?: OneOfOptions,
  ): InputNode<InputOf<B[number]>> => ({ kind: 'oneOf', branches, ...options }),
}

type JsonSchema = Record<string, unknown>

/**
 * The JSON Schema (OpenAPI 3.1) of a node: what the document says of the
 * body. Keys in one order (type, bounds, format, description, items,
 * properties, required), the order the hand-written schemas had.
 */
export function inputJsonSchema(node: InputNode<unknown>): JsonSchema {
  if (node.kind === 'oneOf') return { oneOf: node.branches.map((branch) => inputJsonSchema(branch)) }
  const type = node.kind
  const schema: JsonSchema = { type: node.nullable ? [type, 'null'] : type }
  const copy = (key: string, value: unknown) => {
    if (value !== undefined) schema[key] = value
  }
  if (node.kind === 'string') {
    copy('minLength', node.minLength)
    copy('maxLength', node.maxLength)
  }
  if (node.kind === 'number' || node.kind === 'integer') {
    copy('minimum', node.minimum)
    copy('maximum', node.maximum)
  }
  if (node.kind === 'array') {
    copy('minItems', node.minItems)
    copy('maxItems', node.maxItems)
  }
  if (node.kind === 'string') {
    copy('pattern', node.pattern)
    copy('format', node.format)
    copy('enum', node.enum && [...node.enum])
    copy('writeOnly', node.writeOnly)
  }
  if (node.kind === 'boolean') {
    copy('enum', node.enum && [...node.enum])
    copy('default', node.default)
  }
  copy('description', node.description)
  if (node.kind === 'array') schema.items = inputJsonSchema(node.items)
  if (node.kind === 'object') {
    const properties = Object.entries(node.properties)
    if (properties.length > 0)
      schema.properties = Object.fromEntries(properties.map(([name, child]) => [name, inputJsonSchema(child)]))
    if (node.required?.length) schema.required = [...node.required]
    if (node.additionalProperties) schema.additionalProperties = inputJsonSchema(node.additionalProperties)
  }
  return schema
}

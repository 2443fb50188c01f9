import type { HydraContext } from './context.js'
import { badRequest, type HttpError, violation, ViolationError } from './errors.js'
import type { InputKeyword, InputNode, InputRefusal } from './input.js'

/**
 * A request body checked against its endpoint's `input` (hydra/input.ts),
 * before the handler runs. The first failed check answers (as the
 * hand-written checks did, one refusal at a time), with the refusal the
 * failing node declares for it, else the nearest enclosing node's, else a
 * violation at its path.
 */

type Node = InputNode<unknown>

class Refused {
  constructor(
    readonly keyword: InputKeyword,
    readonly at: Array<{ node: Node; path: string }>,
  ) {}
}

const TYPES: Record<Node['kind'], (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  oneOf: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
}

const TYPE_NAMES: Record<Node['kind'], string> = {
  string: 'string',
  number: 'number',
  integer: 'int',
  boolean: 'bool',
  array: 'array',
  object: 'object',
  oneOf: 'object',
}

const childPath = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key

/** Walks one node; throws Refused at the first failed check. */
function walk(node: Node, value: unknown, path: string, chain: Array<{ node: Node; path: string }>, ctx: HydraContext) {
  const here = [...chain, { node, path }]
  const fail = (keyword: InputKeyword) => new Refused(keyword, here)
  if (value === null && node.nullable) return
  if (!TYPES[node.kind](value)) throw fail('type')
  if (node.kind === 'oneOf') {
    const record = value as Record<string, unknown>
    const sent = (name: string) => record[name] !== undefined && !(node.absentWhenNull && record[name] === null)
    const matching = node.branches.filter((b) => (b.required ?? []).every(sent))
    if (matching.length > 1) throw fail('oneOf')
    if (matching.length === 0) throw fail('required')
    // The branch is the same value seen as one of its shapes: its failures are this node's path's.
    walk(matching[0]!, value, path, here, ctx)
  }
  if (node.kind === 'boolean' && node.enum && !node.enum.includes(value as true)) throw fail('enum')
  if (node.kind === 'string') {
    const text = value as string
    if (node.enum && !node.enum.includes(text)) throw fail('enum')
    if (node.minLength !== undefined && text.length < node.minLength) throw fail('minLength')
    if (node.maxLength !== undefined && text.length > node.maxLength) throw fail('maxLength')
    if (node.pattern !== undefined && !new RegExp(node.pattern, 'u').test(text)) throw fail('pattern')
    if (node.format === 'date-time' && Number.isNaN(new Date(text).getTime())) throw fail('format')
  }
  if (node.kind === 'array') {
    const list = value as unknown[]
    const tooMany = () => {
      if (node.maxItems !== undefined && list.length > node.maxItems) throw fail('maxItems')
    }
    if (node.minItems !== undefined && list.length < node.minItems) throw fail('minItems')
    if (node.itemsLast) tooMany()
    for (const [index, item] of list.entries()) walk(node.items, item, childPath(path, index), here, ctx)
    tooMany()
  }
  if (node.kind === 'object') {
    const record = value as Record<string, unknown>
    for (const name of node.checkOrder ?? Object.keys(node.properties)) {
      const child = node.properties[name]!
      const at = childPath(path, name)
      if (record[name] === undefined) {
        if (node.required?.includes(name)) throw new Refused('required', [...here, { node: child, path: at }])
        continue
      }
      walk(child, record[name], at, here, ctx)
    }
  }
  if (node.check && !node.check(value, ctx)) throw fail('check')
}

const DEFAULT_MESSAGES: Partial<Record<InputKeyword, (node: Node) => string>> = {
  type: (node) => `This value should be of type ${TYPE_NAMES[node.kind]}.`,
  required: () => 'This value should not be blank.',
}

/** The answer to a failed check: the refusal of the failing node, else of the nearest node around it. */
function answer(refused: Refused): HttpError | ViolationError {
  const failing = refused.at.at(-1)!
  for (const { node, path } of [...refused.at].reverse()) {
    // A keyword's own refusal is the failing node's; enclosing nodes answer with their `refuse`.
    const own = node === failing.node ? node.refuseFor?.[refused.keyword] : undefined
    const refusal: InputRefusal | undefined = own ?? node.refuse
    if (!refusal) continue
    if ('badRequest' in refusal) return badRequest(refusal.badRequest)
    const message = typeof refusal.message === 'function' ? refusal.message(path) : refusal.message
    return new ViolationError([violation(refusal.path ?? path, message, refusal.code)])
  }
  const { node, path } = failing
  const message = DEFAULT_MESSAGES[refused.keyword]?.(node) ?? 'This value is not valid.'
  return new ViolationError([violation(path, message, refused.keyword)])
}

/** Checks a body against its input schema: returns nothing, or throws the error the endpoint answers with. */
export function checkInput(node: Node, body: unknown, ctx: HydraContext): void {
  try {
    walk(node, body, '', [], ctx)
  } catch (error) {
    if (error instanceof Refused) throw answer(error)
    throw error
  }
}

/** A handler read a field its endpoint's input does not declare: a programming error, never a client's. */
export class UndeclaredInputRead extends Error {
  constructor(readonly path: string) {
    super(`The handler read "${path}", which its endpoint's input does not declare: declare it in \`input\`.`)
    this.name = 'UndeclaredInputRead'
  }
}

/** The schema of a property a node declares (any branch's, for oneOf), if it does. */
function declared(node: Node, key: string): Node | undefined {
  if (node.kind === 'oneOf') return node.branches.map((branch) => declared(branch, key)).find(Boolean)
  if (node.kind !== 'object') return undefined
  return Object.hasOwn(node.properties, key) ? node.properties[key] : node.additionalProperties
}

/** Keys any object answers (JSON.stringify, inspection, promises) without being fields of the body. */
const ALWAYS_READABLE = new Set(['toJSON', 'then', 'constructor', 'valueOf', 'toString'])

/**
 * The checked body as the handler gets it: read-only (a write throws), and
 * reading a property the schema does not declare throws UndeclaredInputRead,
 * so a handler cannot come to depend on a field its schema (and so the
 * OpenAPI document) does not name. Spreading or listing it gives the fields
 * sent (undeclared ones only where `additionalProperties` allows them).
 */
export function readOnlyInput<T>(node: Node, value: T, path = ''): T {
  if (typeof value !== 'object' || value === null) return value
  const target = value as object
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'symbol') return Reflect.get(object, key, receiver) as unknown
      if (node.kind === 'array') {
        if (/^\d+$/.test(key)) return readOnlyInput(node.items, (object as unknown[])[Number(key)], `${path}[${key}]`)
        return Reflect.get(object, key, receiver) as unknown
      }
      const child = declared(node, key)
      if (node.kind !== 'object' && node.kind !== 'oneOf') return Reflect.get(object, key, receiver) as unknown
      if (child) return readOnlyInput(child, (object as Record<string, unknown>)[key], childPath(path, key))
      if (ALWAYS_READABLE.has(key)) return Reflect.get(object, key, receiver) as unknown
      throw new UndeclaredInputRead(childPath(path, key))
    },
    set: (_object, key) => {
      throw new TypeError(`The request body is read-only (a write to "${String(key)}").`)
    },
    deleteProperty: (_object, key) => {
      throw new TypeError(`The request body is read-only (a delete of "${String(key)}").`)
    },
    defineProperty: (_object, key) => {
      throw new TypeError(`The request body is read-only (a definition of "${String(key)}").`)
    },
  }) as T
}

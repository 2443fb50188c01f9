import { type Endpoint, type HttpMethod, METHOD_ORDER } from '../endpoint.js'
import { badRequest } from '../errors.js'

interface CompiledEndpoint {
  endpoint: Endpoint
  pattern: RegExp
  names: Array<{ name: string; rest: boolean }>
  /** Literal segments of the template: more wins. */
  literals: number
  /** `{name+}` parameters: fewer wins (one segment is more specific than the rest of a path). */
  rests: number
}

export interface EndpointMatch {
  endpoint: Endpoint
  params: Record<string, string>
}

export type TableLookup =
  | { kind: 'found'; match: EndpointMatch }
  /**
   * The path exists, not with this method. `publicWrite`: every endpoint of
   * the path is public, so anonymous callers get the 405 too, not a 401.
   */
  | { kind: 'method'; allowed: HttpMethod[]; publicWrite: boolean }
  | { kind: 'none' }

/** Key under which readParams notes a segment that is not valid percent-encoding. */
const INVALID = '\u0000invalid'

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function compile(endpoint: Endpoint): CompiledEndpoint {
  const names: CompiledEndpoint['names'] = []
  let literals = 0
  const source = endpoint.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)(\+?)\}$/.exec(segment)
      if (param) {
        names.push({ name: param[1]!, rest: param[2] === '+' })
        return param[2] === '+' ? '(.+)' : '([^/]+)'
      }
      if (segment !== '') literals++
      // A parameter inside a segment (`{name}.jsonld`) is not supported: templates stay readable.
      if (segment.includes('{'))
        throw new Error(`Endpoint template "${endpoint.path}": a parameter must fill a whole segment.`)
      return escape(segment)
    })
    .join('/')
  return {
    endpoint,
    pattern: new RegExp(`^${source === '' ? '/' : source}/?$`),
    names,
    literals,
    rests: names.filter((n) => n.rest).length,
  }
}

/** Shape of a template for the ambiguity check: parameter names do not matter. */
const shapeOf = (path: string) =>
  path
    .replace(/\{\w+\+\}/g, '{+}')
    .replace(/\{\w+\}/g, '{}')
    .replace(/\/+$/, '')

/**
 * The endpoint table: every endpoint of the API, matched by specificity
 * (see Endpoint), never by the order in which features declared them.
 */
export class EndpointTable {
  private readonly api: CompiledEndpoint[]
  private readonly root: CompiledEndpoint[]

  constructor(readonly endpoints: Endpoint[]) {
    const seen = new Map<string, Endpoint>()
    for (const endpoint of endpoints) {
      const key = `${endpoint.root ? 'root' : 'api'} ${endpoint.method} ${shapeOf(endpoint.path)} ${Object.keys(
        endpoint.params ?? {},
      )
        .sort()
        .join(',')}`
      const other = seen.get(key)
      if (other)
        throw new Error(
          `Two endpoints answer ${endpoint.method} ${endpoint.path} alike (also ${other.path}): give one a constraint or a literal segment.`,
        )
      seen.set(key, endpoint)
    }
    const compiled = endpoints.map(compile)
    this.api = compiled.filter((c) => !c.endpoint.root)
    this.root = compiled.filter((c) => c.endpoint.root)
  }

  /** Looks up a path under the API prefix (`root` false) or outside it (`root` true). */
  lookup(method: string, path: string, root: boolean): TableLookup {
    const wanted = method === 'HEAD' ? 'GET' : method
    let best: { compiled: CompiledEndpoint; params: Record<string, string>; constrained: number } | null = null
    const allowed = new Set<HttpMethod>()
    let everyPublic = true
    for (const compiled of root ? this.root : this.api) {
      const found = compiled.pattern.exec(path)
      if (!found) continue
      const params = readParams(compiled, found)
      const constraints = compiled.endpoint.params ?? {}
      if (!Object.entries(constraints).every(([name, holds]) => params[name] !== undefined && holds(params[name]!)))
        continue
      allowed.add(compiled.endpoint.method)
      if (compiled.endpoint.security !== 'public') everyPublic = false
      if (compiled.endpoint.method !== wanted) continue
      const constrained = Object.keys(constraints).length
      if (!best || moreSpecific({ compiled, constrained }, best)) best = { compiled, params, constrained }
    }
    if (best) {
      // A malformed escape in a parameter of the chosen endpoint is the client's mistake.
      const invalid = best.params[INVALID]
      if (invalid !== undefined) throw badRequest(`The path segment "${invalid}" is not valid percent-encoding.`)
      return { kind: 'found', match: { endpoint: best.compiled.endpoint, params: best.params } }
    }
    if (allowed.size > 0)
      return { kind: 'method', allowed: METHOD_ORDER.filter((m) => allowed.has(m)), publicWrite: everyPublic }
    return { kind: 'none' }
  }
}

/**
 * Specificity, in this order: more literal segments, more constrained
 * parameters, fewer rest parameters; last the template itself (so that even
 * a tie never depends on declaration order).
 */
function moreSpecific(
  a: { compiled: CompiledEndpoint; constrained: number },
  b: { compiled: CompiledEndpoint; constrained: number },
): boolean {
  if (a.compiled.literals !== b.compiled.literals) return a.compiled.literals > b.compiled.literals
  if (a.constrained !== b.constrained) return a.constrained > b.constrained
  if (a.compiled.rests !== b.compiled.rests) return a.compiled.rests < b.compiled.rests
  return a.compiled.endpoint.path < b.compiled.endpoint.path
}

function readParams(compiled: CompiledEndpoint, found: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {}
  compiled.names.forEach(({ name, rest }, index) => {
    const value = found[index + 1]!
    try {
      // `{name+}` stays as sent (its handler tells an encoded slash from a separator), but must decode too.
      const decoded = decodeURIComponent(value)
      params[name] = rest ? value : decoded
    } catch {
      params[name] = value
      params[INVALID] = value
    }
  })
  return params
}

/**
 * Topic selectors of the Mercure protocol: `*` (every topic), an exact
 * topic, or a URI template (RFC 6570): `{var}` stands for one path segment
 * (one or more characters, none of `/`, `?`, `#`), `{+var}` and `{#var}` for
 * anything (one or more characters). The same selectors appear in a
 * subscription's `topic` parameters and in the `mercure.publish` /
 * `mercure.subscribe` claims of a JWT.
 *
 * Selectors come from clients, so a template is never turned into a regular
 * expression (a backtracking engine takes exponential time on
 * `{+a}{+a}{+a}…!`). It is compiled into a position automaton run
 * bit-parallel over the topic: every position of the template is a bit, all
 * of them advance together on each character of the topic. The cost is
 * (topic length) × (template positions / 32) word operations whatever the
 * template: no input makes it backtrack.
 */

/** What a compiled selector tells about a topic. */
export type TopicMatcher = (topic: string) => boolean

const SEPARATORS = new Set(['/', '?', '#'])
const isSeparator = (code: number) => code === 47 || code === 63 || code === 35

type Position = { kind: 'literal'; char: string } | { kind: 'segment' } | { kind: 'anything' }

/** The template's positions: one per literal character, one per expression (which repeats, `+`). */
function positionsOf(template: string): Position[] {
  const positions: Position[] = []
  let index = 0
  while (index < template.length) {
    const close = template[index] === '{' ? template.indexOf('}', index + 1) : -1
    if (close === -1) {
      // An unclosed `{` is a literal character, as any other.
      positions.push({ kind: 'literal', char: template[index]! })
      index += 1
      continue
    }
    const operator = template[index + 1]
    positions.push({ kind: operator === '+' || operator === '#' ? 'anything' : 'segment' })
    index = close + 1
  }
  return positions
}

function setBit(mask: Uint32Array, bit: number): void {
  mask[bit >>> 5]! |= 1 << (bit & 31)
}

/** The literal characters at one end of the positions, up to the first expression. */
function fixedEnd(positions: readonly Position[]): string[] {
  const chars: string[] = []
  for (const position of positions) {
    if (position.kind !== 'literal') break
    chars.push(position.char)
  }
  return chars
}

/**
 * The automaton of the positions between a template's fixed ends: for each
 * character, the positions it may occupy (its literal positions and the
 * expressions that take it); the expressions repeat. Runs over a string in
 * (its length) × (positions / 32) word operations; true when the string
 * takes every position in order.
 */
function automaton(positions: readonly Position[]): (text: string, from: number, to: number) => boolean {
  const count = Math.ceil(positions.length / 32)
  const onSeparator = new Uint32Array(count)
  const otherwise = new Uint32Array(count)
  const repeats = new Uint32Array(count)
  const literal = new Map<string, Uint32Array>()
  positions.forEach((position, bit) => {
    if (position.kind === 'literal') {
      let mask = literal.get(position.char)
      if (!mask) literal.set(position.char, (mask = new Uint32Array(count)))
      setBit(mask, bit)
      return
    }
    setBit(repeats, bit)
    setBit(otherwise, bit)
    if (position.kind === 'anything') setBit(onSeparator, bit)
  })
  const masks = new Map<number, Uint32Array>()
  for (const [char, mask] of literal) {
    const base = SEPARATORS.has(char) ? onSeparator : otherwise
    masks.set(
      char.charCodeAt(0),
      mask.map((word, i) => word | base[i]!),
    )
  }
  const wildcards = (code: number) => (isSeparator(code) ? onSeparator : otherwise)
  // ASCII (what IRIs are made of) by index; other characters through the map.
  const ascii = Array.from({ length: 128 }, (_, code) => masks.get(code) ?? wildcards(code))
  const last = positions.length - 1
  let state = new Uint32Array(count)
  let next = new Uint32Array(count)
  return (text, from, to) => {
    state.fill(0)
    for (let at = from; at < to; at++) {
      const code = text.charCodeAt(at)
      const allowed = code < 128 ? ascii[code]! : (masks.get(code) ?? wildcards(code))
      // Every active position advances by one (the first character enters position 0); the repeating ones may stay.
      let carry = at === from ? 1 : 0
      let any = 0
      for (let i = 0; i < count; i++) {
        const word = state[i]!
        const kept = ((word << 1) | carry | (word & repeats[i]!)) & allowed[i]!
        carry = word >>> 31
        next[i] = kept
        any |= kept
      }
      if (any === 0) return false
      const swap = state
      state = next
      next = swap
    }
    return (state[last >>> 5]! & (1 << (last & 31))) !== 0
  }
}

/**
 * The usual shapes between the fixed ends, without the automaton: only `{+var}`s (anything of at least as many
 * characters) or one `{var}` (one segment: at least a character, no separator).
 */
function shortcut(positions: readonly Position[]): ((text: string, from: number, to: number) => boolean) | null {
  if (positions.every((position) => position.kind === 'anything'))
    return (_text, from, to) => to - from >= positions.length
  if (positions.length === 1 && positions[0]!.kind === 'segment')
    return (text, from, to) => {
      if (to <= from) return false
      for (let at = from; at < to; at++) if (isSeparator(text.charCodeAt(at))) return false
      return true
    }
  return null
}

/** A template's matcher: its literal prefix and suffix compared as text, the automaton for what lies between. */
function compileTemplate(template: string): TopicMatcher {
  const positions = positionsOf(template)
  const prefix = fixedEnd(positions).join('')
  if (prefix.length === positions.length) return (topic) => topic === prefix
  const suffix = fixedEnd([...positions].reverse())
    .reverse()
    .join('')
  const between = positions.slice(prefix.length, positions.length - suffix.length)
  const middle = shortcut(between) ?? automaton(between)
  const size = positions.length
  return (topic) =>
    // Every position takes one character at least.
    topic.length >= size &&
    topic.startsWith(prefix) &&
    topic.endsWith(suffix) &&
    middle(topic, prefix.length, topic.length - suffix.length)
}

const compiled = new Map<string, TopicMatcher>()
/** Compiled selectors kept at most (selectors come from clients: the cache must not grow without bound). */
const MAX_COMPILED = 1000

/** A selector compiled once: `*`, an exact topic, or a template run by the automaton above. */
export function compileSelector(selector: string): TopicMatcher {
  if (selector === '*') return () => true
  if (!selector.includes('{')) return (topic) => topic === selector
  let matcher = compiled.get(selector)
  if (matcher) return matcher
  matcher = compileTemplate(selector)
  if (compiled.size >= MAX_COMPILED) compiled.clear()
  compiled.set(selector, matcher)
  return matcher
}

/** Whether a topic selector matches a topic. */
export function selectorMatches(selector: string, topic: string): boolean {
  return selector === topic || compileSelector(selector)(topic)
}

/** Whether any compiled selector matches any of the topics. */
export function anyMatches(matchers: readonly TopicMatcher[], topics: readonly string[]): boolean {
  return matchers.some((matches) => topics.some(matches))
}

/** Whether every topic is matched by a selector (a publisher may dispatch an update only to topics it is allowed). */
export function matchesEvery(selectors: readonly string[], topics: readonly string[]): boolean {
  return topics.every((topic) => selectors.some((selector) => selectorMatches(selector, topic)))
}

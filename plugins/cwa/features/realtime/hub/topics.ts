/**
 * Topic selectors of the Mercure protocol: `*` (every topic), an exact
 * topic, or a URI template (RFC 6570): `{var}` stands for one path segment,
 * `{+var}` and `{#var}` for anything. The same selectors appear in a
 * subscription's `topic` parameters and in the `mercure.publish` /
 * `mercure.subscribe` claims of a JWT.
 */

const templates = new Map<string, RegExp>()
/** Compiled templates kept at most (selectors come from clients: the cache must not grow without bound). */
const MAX_TEMPLATES = 1000

function templateRegex(template: string): RegExp {
  let regex = templates.get(template)
  if (regex) return regex
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  const pattern = escaped.replace(/\{(\\\+|#)?[^}]*\}/g, (_whole, reserved: string | undefined) =>
    reserved ? '.+' : '[^/?#]+',
  )
  regex = new RegExp(`^${pattern}$`)
  if (templates.size >= MAX_TEMPLATES) templates.clear()
  templates.set(template, regex)
  return regex
}

/** Whether a topic selector matches a topic. */
export function selectorMatches(selector: string, topic: string): boolean {
  if (selector === '*' || selector === topic) return true
  return selector.includes('{') && templateRegex(selector).test(topic)
}

/** Whether any selector matches any of the topics (a subscription, or the subscriber JWT of a private update). */
export function matchesAny(selectors: readonly string[], topics: readonly string[]): boolean {
  return selectors.some((selector) => topics.some((topic) => selectorMatches(selector, topic)))
}

/** Whether every topic is matched by a selector (a publisher may dispatch an update only to topics it is allowed). */
export function matchesEvery(selectors: readonly string[], topics: readonly string[]): boolean {
  return topics.every((topic) => selectors.some((selector) => selectorMatches(selector, topic)))
}

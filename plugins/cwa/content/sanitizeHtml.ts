import type { Element as HappyElement, Window } from 'happy-dom'

/**
 * An allow-list HTML sanitizer for HtmlContent's `html` (written through the
 * JSON-LD API or converted from the editor). Elements outside the list are
 * unwrapped (their text stays), except those whose content is code or a
 * foreign document, which go with their content; attributes outside the list
 * are dropped, and so are links to anything but http(s), mailto, tel and
 * relative URLs. Plain text stays plain text ("v2" is stored as "v2").
 */
const ALLOWED: Record<string, string[]> = {
  p: [],
  br: [],
  hr: [],
  strong: [],
  b: [],
  em: [],
  i: [],
  u: [],
  s: [],
  sub: [],
  sup: [],
  code: [],
  pre: [],
  blockquote: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  ul: [],
  ol: ['start'],
  li: ['value'],
  span: [],
  div: [],
  a: ['href', 'target', 'rel'],
  img: ['src', 'alt', 'width', 'height'],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
}
const GLOBAL_ATTRIBUTES = ['class', 'title', 'dir', 'lang']
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'svg',
  'math',
  'textarea',
  'select',
  'head',
  'title',
  'link',
  'meta',
  'base',
  'frame',
  'frameset',
])
const URL_ATTRIBUTES = new Set(['href', 'src'])
const SAFE_URL = /^(?:https?:|mailto:|tel:|[/?#.]|[^:]*$)/i

let window: Window | undefined

/**
 * happy-dom, imported on first use: it is about 470 modules, which every
 * process of the site (the server, each operator command) would otherwise load
 * at start whether or not it ever sees a rich text.
 */
export async function happyDom(): Promise<typeof import('happy-dom')> {
  return import('happy-dom')
}

export async function sanitizeHtml(html: string): Promise<string> {
  if (!/[<&]/.test(html)) return html
  window ??= new (await happyDom()).Window()
  const container = window.document.createElement('div')
  container.innerHTML = html
  clean(container)
  return container.innerHTML
}

function clean(parent: HappyElement): void {
  for (const node of Array.from(parent.childNodes)) {
    if (node.nodeType === 8) {
      parent.removeChild(node) // comments
      continue
    }
    if (node.nodeType !== 1) continue
    const element = node as HappyElement
    const tag = element.tagName.toLowerCase()
    if (DROPPED_WITH_CONTENT.has(tag)) {
      element.remove()
      continue
    }
    clean(element)
    const allowed = ALLOWED[tag]
    if (!allowed) {
      element.replaceWith(...Array.from(element.childNodes))
      continue
    }
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase()
      const keep =
        (allowed.includes(name) || GLOBAL_ATTRIBUTES.includes(name)) &&
        (!URL_ATTRIBUTES.has(name) || SAFE_URL.test((attribute.value ?? '').trim()))
      if (!keep) element.removeAttribute(attribute.name)
    }
    if (tag === 'a' && element.getAttribute('target') === '_blank') element.setAttribute('rel', 'noopener noreferrer')
  }
}

import type { RichTextAdapterProvider } from 'payload'

/**
 * The site's rich-text editor (Payload's Lexical), loaded without stalling
 * Node 20.
 *
 * Why not a plain `import { lexicalEditor } from '@payloadcms/richtext-lexical'`:
 * Lexical 0.50 resolves, under Node's "node" export condition, to
 * `*.node.mjs` wrappers (`lexical`, and 24 `@lexical/*` packages) that pick
 * the development or production build with a top-level
 * `await import('./X.dev.mjs')`. On Node 20 a graph of these wrappers
 * importing one another loses its last pending job in the ESM loader: the
 * event loop empties while the entry module is still evaluating and the
 * process exits with code 13, silently, on most starts. It looked like a
 * stall "when stdin is not a terminal", but stdin has nothing to do with it
 * (a terminal on stdin fails just as often; Node 22 is not affected).
 *
 * The fix: resolve `lexical` and `@lexical/*` with the "development" or
 * "production" condition as well (listed before "node" in their exports, the
 * build NODE_ENV would select), so Node loads the builds directly, with no
 * wrapper. A resolve hook registered here does it, before the first import of
 * the editor, which is why the editor is imported dynamically (a static import
 * is resolved before any module body runs). The hook's source is a data: URL
 * so the bundle `npm start` builds needs no file beside it.
 * test/site/richTextStart.test.ts starts the site with stdin closed.
 */
const HOOK_SOURCE = `
const isLexical = (specifier) => specifier === 'lexical' || specifier.startsWith('@lexical/')
let condition = 'development'
export function initialize(data) { condition = data && data.condition ? data.condition : condition }
export async function resolve(specifier, context, nextResolve) {
  if (!isLexical(specifier) || context.conditions.includes(condition)) return nextResolve(specifier, context)
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, condition] })
}
`

let registered = false

const runByJest = () =>
  /[\\/](jest|jest-worker|jest-cli)[\\/]/.test(process.argv[1] ?? '') ||
  /[\\/]\.bin[\\/]jest$/.test(process.argv[1] ?? '')

async function registerLexicalConditions(): Promise<void> {
  // Next.js (webpack) and jest resolve modules themselves: Node's loader hooks do not apply there.
  // (Not JEST_WORKER_ID: the processes a test starts inherit it.)
  if (registered || process.env.NEXT_RUNTIME || runByJest()) return
  registered = true
  // (module.register: Node 20.6+; the pinned @types/node predates it.)
  const { register } = (await import('node:module')) as unknown as {
    register?: (specifier: string, options: { data: unknown }) => void
  }
  if (typeof register !== 'function') return
  const condition = process.env.NODE_ENV === 'production' ? 'production' : 'development'
  register(`data:text/javascript,${encodeURIComponent(HOOK_SOURCE)}`, { data: { condition } })
}

/**
 * Lexical with the features Payload enables by default, and a toolbar always shown above the text (bold, lists,
 * links... at hand, as editors expect; by default they only appear over selected text). The HTML converters run in
 * HtmlContent's hooks.
 */
export async function richTextEditor(): Promise<RichTextAdapterProvider> {
  await registerLexicalConditions()
  const { FixedToolbarFeature, lexicalEditor } = await import('@payloadcms/richtext-lexical')
  return lexicalEditor({
    features: ({ defaultFeatures }) => [...defaultFeatures, FixedToolbarFeature()],
  }) as RichTextAdapterProvider
}

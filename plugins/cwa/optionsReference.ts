/**
 * The options reference of docs/configuration.md, generated from the
 * declarations (core/defineOptions.ts): every option of the core, of each
 * built-in feature and of the commands, with its type, its default and its
 * doc. `npm run docs:options` writes it between the two markers;
 * test/core/optionsReference.unit.test.ts fails when the committed page
 * differs from what the declarations give.
 */
import type { OptionSpec } from './core/defineOptions.js'
import { declaredOptionParts } from './options.js'

export const REFERENCE_START =
  '<!-- options reference: written by `npm run docs:options` from the declarations; edit those, not this -->'
export const REFERENCE_END = '<!-- end of the options reference -->'

/** A table cell: pipes escaped, one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
const code = (text: string) => `\`${cell(text)}\``

function rows(spec: OptionSpec, prefix = ''): string[] {
  return Object.entries(spec).flatMap(([key, entry]) => {
    const path = prefix ? `${prefix}.${key}` : key
    if (entry.kind === 'group')
      return [`| ${code(path)} | object | | ${cell(entry.doc)} |`, ...rows(entry.options, path)]
    return [`| ${code(path)} | ${code(entry.type)} | ${cell(entry.defaultText)} | ${cell(entry.doc)} |`]
  })
}

/** The reference, markers included: one table per part that declares options, in the order they are resolved. */
export function optionsReference(): string {
  const sections = declaredOptionParts().map(({ name, spec }) =>
    [
      `#### ${name}`,
      '',
      '| Option | Type | `@default` | What it does |',
      '| --- | --- | --- | --- |',
      ...rows(spec),
    ].join('\n'),
  )
  return [REFERENCE_START, '', ...sections.flatMap((section) => [section, '']), REFERENCE_END].join('\n')
}

/** The page with its reference replaced by `reference` (the markers must be there). */
export function withReference(page: string, reference: string): string {
  const start = page.indexOf(REFERENCE_START)
  const end = page.indexOf(REFERENCE_END)
  if (start < 0 || end < start) throw new Error('docs/configuration.md: the options reference markers are missing')
  return page.slice(0, start) + reference + page.slice(end + REFERENCE_END.length)
}

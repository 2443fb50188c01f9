/**
 * Issue 38: the options reference of docs/configuration.md is generated from
 * the option declarations (defineOptions), so a changed default, type or doc
 * shows in the docs only through `npm run docs:options`: this fails when the
 * committed page and the declarations differ. Also: each declaration gives
 * the key check and the defaults (no second list of keys to forget).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { defineOptions, group, option } from '../../plugins/cwa/dist/core/defineOptions.js'
import { assertKnownOptionKeys } from '../../plugins/cwa/dist/core/optionKeys.js'
import { declaredOptionParts, resolveOptions } from '../../plugins/cwa/dist/options.js'
import {
  optionsReference,
  REFERENCE_END,
  REFERENCE_START,
  withReference,
} from '../../plugins/cwa/dist/optionsReference.js'

const page = readFileSync(path.join(process.cwd(), 'docs', 'configuration.md'), 'utf8')

describe('the options reference in docs/configuration.md', () => {
  it('is what the declarations generate (run `npm run docs:options` after changing an option)', () => {
    const committed = page.slice(page.indexOf(REFERENCE_START), page.indexOf(REFERENCE_END) + REFERENCE_END.length)
    expect(committed).toBe(optionsReference())
    expect(withReference(page, optionsReference())).toBe(page)
  })

  it('lists every declared option with its type, default and doc', () => {
    const reference = optionsReference()
    for (const { spec } of declaredOptionParts()) {
      for (const [key, entry] of Object.entries(spec)) {
        expect(entry.doc.trim()).not.toBe('')
        expect(reference).toContain(`| \`${key}\` |`)
      }
    }
    expect(reference).toContain('| `readModel.maxEntries` | `number` | `20000` |')
  })
})

describe('a declaration', () => {
  const declared = defineOptions({
    top: option.number({ default: 3, doc: 'A number.' }),
    nested: group('A group.', {
      flag: option.boolean({ default: true, doc: 'A switch.' }),
      name: option.string({
        default: 'x',
        doc: 'A checked name.',
        resolve: (given, fallback) => {
          if (given === '') throw new Error('nested.name must not be empty')
          return given ?? fallback
        },
      }),
    }),
  })

  it('gives the key schema of the unknown-key check', () => {
    expect(declared.keys).toEqual({ top: true, nested: { flag: true, name: true } })
    expect(() => assertKnownOptionKeys({ nested: { flg: false } }, declared.keys)).toThrow(
      'cwa options: unknown key nested.flg (did you mean nested.flag?)',
    )
  })

  it('resolves the defaults, the given values and the checks', () => {
    expect(declared.resolve({})).toEqual({ top: 3, nested: { flag: true, name: 'x' } })
    expect(declared.resolve({ top: 5, nested: { flag: false } })).toEqual({
      top: 5,
      nested: { flag: false, name: 'x' },
    })
    expect(() => declared.resolve({ nested: { name: '' } })).toThrow('nested.name must not be empty')
  })

  it('the built-in declarations resolve as the plugin does', () => {
    expect(resolveOptions({}).readModel).toEqual({
      enabled: true,
      maxEntries: 20_000,
      maxBytes: 64 * 1024 * 1024,
      admitVariantsAfter: 2,
    })
  })
})

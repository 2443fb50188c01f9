/**
 * Issue 38: each hook of HydraExtension is called from one place, the
 * dispatcher of its group (request hooks, format hooks), which every stage
 * uses. A hook called anywhere else in the library (a loop over the
 * extensions in a feature, a stage asking a hook itself) fails here, with
 * the file and line. No database: the sources are read.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

const LIBRARY = path.resolve('plugins/cwa')
const REQUEST_HOOKS = 'hydra/extensions/requestHooks.ts'
const FORMAT_HOOKS = 'hydra/extensions/formatHooks.ts'

/** The hooks of each group, as hydra/extension.ts declares them (read from the interfaces, so a new hook is checked too). */
function hooksOf(group: 'RequestHooks' | 'FormatHooks'): string[] {
  const source = readFileSync(path.join(LIBRARY, 'hydra/extension.ts'), 'utf8')
  const start = source.indexOf(`export interface ${group} {`)
  const body = source.slice(start, source.indexOf('\n}\n', start))
  return [...body.matchAll(/^ {2}(\w+)\?\(/gm)].map((match) => match[1]!)
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (name === 'dist' || name === 'node_modules') return []
    if (statSync(full).isDirectory()) return sources(full)
    return /\.tsx?$/.test(name) ? [full] : []
  })
}

/** Every call of a hook in the library: `.hook?.(` or `.hook(` on an extension, with its file and line. */
function callSites(hooks: string[]): Map<string, string[]> {
  const sites = new Map<string, string[]>(hooks.map((hook) => [hook, []]))
  for (const file of sources(LIBRARY)) {
    const relative = path.relative(LIBRARY, file)
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const hook of hooks) {
          if (new RegExp(`\\b(extension|e)\\.${hook}(\\?\\.)?\\(`).test(line))
            sites.get(hook)!.push(`${relative}:${index + 1}`)
        }
      })
  }
  return sites
}

describe('the extension hooks', () => {
  it('split in two groups, every hook of HydraExtension in one of them', () => {
    const request = hooksOf('RequestHooks')
    const format = hooksOf('FormatHooks')
    expect(request).toEqual(expect.arrayContaining(['authenticate', 'answerStored', 'store', 'decorateResponse']))
    expect(format).toEqual(expect.arrayContaining(['normalizeItem', 'prepareItems', 'profile', 'openApi']))
    expect(request.filter((hook) => format.includes(hook))).toEqual([])
  })

  it('are each called from one place: the dispatcher of their group', () => {
    for (const [group, dispatcher] of [
      ['RequestHooks', REQUEST_HOOKS],
      ['FormatHooks', FORMAT_HOOKS],
    ] as const) {
      for (const [hook, sites] of callSites(hooksOf(group))) {
        expect({ hook, sites }).toEqual({ hook, sites: [expect.stringMatching(new RegExp(`^${dispatcher}:`))] })
      }
    }
  })
})

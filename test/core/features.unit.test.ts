/**
 * Issue 28, "a feature is one declaration": the features' order comes from
 * their declarations (`after`), never from a list's order, and a cycle or an
 * unknown name stops the config with a message naming them; the options are
 * joined from the features' declarations; and what the package exports of a
 * feature (its public.ts, its admin/ folder) is wired into the front door
 * (index.ts, admin.ts), one line per feature.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { BUILT_IN_FEATURES as FEATURES } from '../../plugins/cwa/dist/features.js'
import { type CwaFeature, orderFeatures } from '../../plugins/cwa/dist/hydra/feature.js'
import { joinKeySchemas } from '../../plugins/cwa/dist/core/optionKeys.js'
import { cwaOptionKeys, resolveOptions } from '../../plugins/cwa/dist/options.js'

const library = path.join(process.cwd(), 'plugins', 'cwa')
const source = (file: string) => readFileSync(path.join(library, file), 'utf8')

const feature = (name: string, after?: string[]): CwaFeature => ({ name, ...(after ? { after } : {}) })
const names = (features: readonly CwaFeature[]) => features.map((f) => f.name)

/** Every `after` of the list is met: each feature comes later than each feature it names. */
function unmetAfters(ordered: readonly CwaFeature[]): string[] {
  const position = new Map(ordered.map((f, index) => [f.name, index]))
  return ordered.flatMap((f) =>
    (f.after ?? []).filter((name) => position.get(name)! > position.get(f.name)!).map((name) => `${f.name} < ${name}`),
  )
}

/** A deterministic shuffle (a small linear congruential generator), so a failure can be run again. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

describe('orderFeatures', () => {
  it('puts each feature after those it names, and keeps the given order between features that name nothing', () => {
    const ordered = orderFeatures([
      feature('admin', ['titles', 'publishable']),
      feature('users'),
      feature('titles', ['publishable']),
      feature('publishable'),
      feature('session'),
    ])
    expect(names(ordered)).toEqual(['users', 'publishable', 'titles', 'admin', 'session'])
  })

  it('refuses a cycle, naming the features in it', () => {
    expect(() =>
      orderFeatures([feature('users'), feature('a', ['c']), feature('b', ['a']), feature('c', ['b'])]),
    ).toThrow(
      'cwa features: their order is a cycle, no feature can come first: a must come after c must come after b must come after a',
    )
    expect(() => orderFeatures([feature('self', ['self'])])).toThrow(
      'their order is a cycle, no feature can come first: self must come after self',
    )
  })

  it('refuses an `after` that names no feature, listing the features', () => {
    expect(() => orderFeatures([feature('users'), feature('uploads', ['publishabel'])])).toThrow(
      'cwa features: uploads must come after "publishabel", which is not a feature (the features: users, uploads)',
    )
  })

  it('refuses two features of one name', () => {
    expect(() => orderFeatures([feature('users'), feature('users')])).toThrow(
      'cwa features: two features are named "users"',
    )
  })
})

describe("the library's features", () => {
  it('are assembled in an order that meets every declared `after`', () => {
    expect(FEATURES.length).toBeGreaterThan(10)
    expect(unmetAfters(FEATURES)).toEqual([])
    // The orders the declarations exist for (plugins/cwa/features.ts).
    const at = (name: string) => names(FEATURES).indexOf(name)
    expect(at('uploads')).toBeGreaterThan(at('publishable'))
    expect(at('routes')).toBeGreaterThan(at('publishable'))
    expect(at('realtime')).toBeGreaterThan(at('httpCache'))
    for (const other of ['publishable', 'uploads', 'routes', 'adminTitles'])
      expect(at('admin')).toBeGreaterThan(at(other))
  })

  it('meet every declared `after` whatever order the list is in', () => {
    for (let seed = 1; seed <= 25; seed++) expect(unmetAfters(orderFeatures(shuffled(FEATURES, seed)))).toEqual([])
  })

  it('each have a folder, and every feature folder is in the list (its one line)', () => {
    const folders = readdirSync(path.join(library, 'features'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
    expect([...folders, 'session'].sort()).toEqual(names(FEATURES).sort())
  })
})

describe('the options, joined from the declarations', () => {
  it("holds every key of every feature's declaration, and their defaults", () => {
    const resolved = resolveOptions({}) as unknown as Record<string, unknown>
    for (const { name, options } of FEATURES) {
      if (!options) continue
      for (const [key, schema] of Object.entries(options.keys)) {
        if (schema === true) expect([name, key, cwaOptionKeys[key as never]]).toEqual([name, key, true])
        else expect(cwaOptionKeys[key as never]).toMatchObject(schema)
      }
      expect(resolved).toMatchObject(options.resolve({}))
    }
    // Shared by two features: one switch each.
    expect(cwaOptionKeys.enabledComponents).toEqual({ form: true, collection: true })
    expect(resolved.enabledComponents).toEqual({ form: true, collection: true })
  })

  it('refuses a key two parts declare, naming both', () => {
    expect(() =>
      joinKeySchemas([
        { name: 'routes', keys: { httpCache: true } },
        { name: 'httpCache', keys: { httpCache: { maxAge: true } } },
      ]),
    ).toThrow('cwa options: the key httpCache is declared by both routes and httpCache')
    expect(() =>
      joinKeySchemas([
        { name: 'forms', keys: { enabledComponents: { form: true } } },
        { name: 'other', keys: { enabledComponents: { form: true } } },
      ]),
    ).toThrow('cwa options: the key enabledComponents.form is declared by both forms and other')
  })
})

/** The names a module exports, following `export *` to the modules it names (sources, not the build). */
function exportedNames(file: string): string[] {
  const text = source(file)
  const dir = path.dirname(file)
  const starred = [...text.matchAll(/^export \* from '(\.[^']+)\.js'/gm)].flatMap(([, target]) =>
    exportedNames(path.join(dir, `${target}.ts${existsSync(path.join(library, dir, `${target}.tsx`)) ? 'x' : ''}`)),
  )
  const named = [...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap(([, list]) =>
    list
      .split(',')
      .map((part) =>
        part
          .trim()
          .replace(/^type /, '')
          .split(' as ')
          .pop()!
          .trim(),
      )
      .filter(Boolean),
  )
  return [...starred, ...named]
}

/** Each feature folder's file at `relative`, where it has one. */
const featureFiles = (relative: string) =>
  names(FEATURES)
    .map((name) => (name === 'session' ? `session/${relative}` : `features/${name}/${relative}`))
    .filter((file) => existsSync(path.join(library, file)))

describe('what the package exports of each feature', () => {
  it("index.ts re-exports every feature's public.ts, one line each", () => {
    const publics = featureFiles('public.ts')
    expect(publics.length).toBeGreaterThan(10)
    const lines = [...source('index.ts').matchAll(/^export \* from '\.\/(.+)\.js'$/gm)].map(([, file]) => `${file}.ts`)
    expect(lines.sort()).toEqual(publics.sort())
  })

  it("admin.ts re-exports every feature's admin components (its admin/index.ts), one line each", () => {
    const barrels = [...featureFiles('admin/index.ts'), 'features/admin/components/index.ts']
    const lines = [...source('admin.ts').matchAll(/^export \* from '\.\/(.+)\.js'$/gm)].map(([, file]) => `${file}.ts`)
    expect(lines.sort()).toEqual(barrels.sort())
  })

  it('payload-cwa/admin exports every component the plugin and the import maps name', () => {
    const exported = new Set(exportedNames('admin.ts'))
    const named = new Set<string>()
    const walk = (dir: string) => {
      for (const entry of readdirSync(path.join(library, dir), { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory() && entry.name !== 'dist' && entry.name !== 'node_modules') walk(file)
        else if (/\.tsx?$/.test(entry.name)) {
          // Code lines only: a comment may show the form (`${ADMIN_COMPONENTS}#Export`).
          const code = source(file)
            .split('\n')
            .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
            .join('\n')
          for (const [, name] of code.matchAll(/\$\{ADMIN_(?:ENTRY|COMPONENTS)\}#(\w+)/g)) named.add(name)
        }
      }
    }
    walk('.')
    expect(named.size).toBeGreaterThan(10)
    for (const importMap of [
      'app/(payload)/admin/importMap.js',
      'examples/fresh-app/src/app/(payload)/admin/importMap.js',
    ])
      for (const [, name] of readFileSync(path.join(process.cwd(), importMap), 'utf8').matchAll(
        /"payload-cwa\/admin#(\w+)"/g,
      ))
        named.add(name)
    expect([...named].filter((name) => !exported.has(name))).toEqual([])
    expect([...exported].filter((name) => !named.has(name))).toEqual([])
  })
})

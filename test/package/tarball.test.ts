/**
 * What `npm pack` of payload-cwa ships: compiled modules with their types and nothing else (no test, bench, source
 * map or TypeScript source, no build stamp, no file outside `files`, no module left from a deleted source), and
 * what publint and @arethetypeswrong/cli say of the tarball.
 *
 * attw runs with `--profile esm-only`: the package is ESM-only on purpose (`type: module`, `import` conditions, no
 * `require`), as Payload 3 and Next.js load it; that profile ignores the two resolutions that cannot load an
 * ESM-only package (node10 and node16 from CommonJS) and still fails on every problem under node16 (from ESM) and
 * bundler, the two an app on Payload's template uses.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { compiledSources, packageDir, packPlugin, runOk } from './pack'

const root = process.cwd()
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)
let tarball: string
let entries: string[]

beforeAll(async () => {
  const packed = await packPlugin()
  tarball = packed.tarball
  entries = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line && !line.endsWith('/'))
  console.log(
    `packed ${path.basename(tarball)} (${entries.length} files) in ${packed.seconds.toFixed(1)} s${packed.seconds === 0 ? ' (this run had it already)' : ''}`,
  )
}, 900_000)

describe('the packed payload-cwa tarball', () => {
  it('holds compiled modules and their types only, each from a current source', () => {
    expect(entries.every((entry) => entry.startsWith('package/'))).toBe(true)
    const files = entries.map((entry) => entry.slice('package/'.length))
    const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { files: string[] }
    const listed = manifest.files.filter((pattern) => !pattern.startsWith('!'))
    // npm always packs package.json (and a README or LICENSE when there is one); everything else is under `files`.
    const outside = files.filter(
      (file) =>
        !['package.json', 'README.md', 'LICENSE'].includes(file) &&
        !listed.some((entry) => file === entry || file.startsWith(`${entry}/`)),
    )
    expect(outside).toEqual([])
    const unwanted = files.filter(
      (file) =>
        /(^|\/)(test|tests|__tests__|bench|fixtures?-tests?)\//.test(file) ||
        /\.(test|spec|bench)\.[cm]?[jt]sx?$/.test(file) ||
        /\.map$/.test(file) ||
        /(^|\/)\.[^/]+$/.test(file) ||
        (/\.(ts|tsx|mts|cts)$/.test(file) && !/\.d\.[cm]?ts$/.test(file)),
    )
    expect(unwanted).toEqual([])
    // Swagger UI's files, copied at build time from swagger-ui-dist (not a dependency), with their licence.
    expect(files.filter((file) => file.startsWith('dist/swagger-ui/')).sort()).toEqual(
      [
        'LICENSE',
        'NOTICE',
        'favicon-16x16.png',
        'favicon-32x32.png',
        'swagger-ui-bundle.js',
        'swagger-ui-bundle.js.LICENSE.txt',
        'swagger-ui.css',
      ].map((file) => `dist/swagger-ui/${file}`),
    )
    const dist = files.filter((file) => file.startsWith('dist/') && !file.startsWith('dist/swagger-ui/'))
    expect(dist.length).toBeGreaterThan(0)
    expect(dist.filter((file) => !/\.(js|d\.ts)$/.test(file))).toEqual([])
    // Every module has its declarations and comes from a source file that exists today (a clean build: nothing stale).
    const modules = dist.filter((file) => file.endsWith('.js')).map((file) => file.slice('dist/'.length, -'.js'.length))
    const declarations = dist
      .filter((file) => file.endsWith('.d.ts'))
      .map((file) => file.slice('dist/'.length, -'.d.ts'.length))
    expect(modules.filter((module) => !declarations.includes(module))).toEqual([])
    expect(declarations.filter((module) => !modules.includes(module))).toEqual([])
    const sources = new Set(compiledSources().map((file) => file.replace(/\.tsx?$/, '')))
    expect(modules.filter((module) => !sources.has(module))).toEqual([])
    expect([...sources].filter((source) => !modules.includes(source))).toEqual([])
  })

  it('has its own README and its MIT licence, and a manifest fit for the registry', () => {
    expect(entries).toEqual(expect.arrayContaining(['package/README.md', 'package/LICENSE']))
    const text = (file: string) => execFileSync('tar', ['xzOf', tarball, `package/${file}`], { encoding: 'utf8' })
    expect(text('LICENSE')).toMatch(/^MIT License\n/)
    expect(text('README.md')).toMatch(/^# payload-cwa\n[\s\S]*## Install[\s\S]*cwaPlugin\(\)[\s\S]*docs\/adopting\.md/)
    const manifest = JSON.parse(text('package.json')) as {
      license: string
      scripts: Record<string, string>
      dependencies: Record<string, string>
      peerDependenciesMeta: Record<string, { optional?: boolean }>
    }
    expect(manifest.license).toBe('MIT')
    expect(manifest.scripts.prepack).toBe('node scripts/build.mjs --clean')
    // S3 is an optional peer, loaded when configured; swagger-ui-dist (and @scarf/scarf, its install-time analytics) is no dependency.
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      'busboy',
      'esbuild',
      'file-type',
      'happy-dom',
      'jose',
      'qs-esm',
    ])
    for (const optional of ['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner', 'express'])
      expect(manifest.peerDependenciesMeta[optional]).toEqual({ optional: true })
  })

  it('brings no install-time script of its own dependencies but the esbuild that Payload (tsx) installs anyway', () => {
    const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    const withScripts = new Set<string>()
    const seen = new Set<string>()
    const visit = (name: string) => {
      if (seen.has(name)) return
      seen.add(name)
      const found = [path.join(packageDir, 'node_modules', name), path.join(root, 'node_modules', name)].find((dir) =>
        existsSync(path.join(dir, 'package.json')),
      )
      if (!found) return // an optional platform package not installed here
      const pkg = JSON.parse(readFileSync(path.join(found, 'package.json'), 'utf8')) as {
        scripts?: Record<string, string>
        dependencies?: Record<string, string>
        optionalDependencies?: Record<string, string>
      }
      if (['preinstall', 'install', 'postinstall'].some((script) => pkg.scripts?.[script])) withScripts.add(name)
      for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep)
    }
    for (const dep of Object.keys(manifest.dependencies)) visit(dep)
    expect([...withScripts]).toEqual(['esbuild'])
    const tsx = JSON.parse(readFileSync(path.join(root, 'node_modules', 'tsx', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(tsx.dependencies).toHaveProperty('esbuild')
  })

  it("answers every export of the package's exports map with a packed file", () => {
    const manifest = JSON.parse(
      execFileSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    ) as { exports: Record<string, string | Record<string, string>> }
    const targets = Object.values(manifest.exports).flatMap((target) =>
      typeof target === 'string' ? [target] : Object.values(target),
    )
    expect(targets.length).toBeGreaterThan(5)
    expect(targets.filter((target) => !entries.includes(`package/${target.replace(/^\.\//, '')}`))).toEqual([])
  })

  it('passes publint, warnings counted as errors', async () => {
    const result = await runOk(bin('publint'), ['run', tarball, '--strict'], { cwd: root })
    expect(result.output).toContain('All good!')
  }, 120_000)

  it('passes @arethetypeswrong/cli (profile esm-only: an ESM-only package)', async () => {
    // A problem under node16 (from ESM) or bundler exits non-zero (runOk fails with attw's table).
    const result = await runOk(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], { cwd: root })
    for (const entry of [
      '"payload-cwa"',
      '"payload-cwa/admin"',
      '"payload-cwa/next"',
      '"payload-cwa/content"',
      '"payload-cwa/express"',
      '"payload-cwa/types"',
    ])
      expect(result.output).toContain(entry)
  }, 120_000)
})

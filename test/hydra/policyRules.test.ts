/**
 * The boundary rules of issue 28 (eslint.config.js): no role check or
 * Cache-Control header outside the pipeline, no '@context' literal in
 * features/; of issue 38: no normalizer imported by a feature or the
 * session layer (the pipeline normalizes the records a handler returns). Fixtures that break each rule are linted as if they sat in the
 * library, through ESLint's own API in one child process (the config is an
 * ES module of the repository, as `npm run lint` reads it).
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'

interface Fixture {
  file: string
  code: string
}

/** Lints each fixture under its file name; returns the rule ids and messages of each. */
function lint(fixtures: Fixture[]): Array<Array<{ ruleId: string | null; message: string }>> {
  const script = `
    import { ESLint } from 'eslint'
    const fixtures = JSON.parse(process.argv[1])
    const eslint = new ESLint()
    const out = []
    for (const { file, code } of fixtures) {
      const [result] = await eslint.lintText(code, { filePath: file })
      out.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })))
    }
    console.log(JSON.stringify(out))`
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(fixtures)], {
    cwd: process.cwd(),
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  return JSON.parse(output)
}

const FEATURE = 'plugins/cwa/features/probe/endpoints.ts'

const fixtures: Record<string, Fixture> = {
  contextLiteral: {
    file: FEATURE,
    code: `export const answer = (prefix: string) => ({ '@context': prefix + '/contexts/Entrypoint', '@type': 'Probe' })\n`,
  },
  cacheHeaderProperty: {
    file: FEATURE,
    code: `export const answer = () => ({ status: 200, headers: { 'Cache-Control': 'private, no-store' } })\n`,
  },
  cacheHeaderSet: {
    file: 'plugins/cwa/session/probe.ts',
    code: `export function answer(headers: Headers): void {\n  headers.set('cache-control', 'private, no-store')\n}\n`,
  },
  roleCheck: {
    file: FEATURE,
    code: [
      `import { forbidden, unauthorized } from '../../hydra/errors.js'`,
      `export function assertAdmin(user: unknown, admin: boolean): void {`,
      `  if (!user) throw unauthorized()`,
      `  if (!admin) throw forbidden()`,
      `}`,
      ``,
    ].join('\n'),
  },
  refusalBuiltByHand: {
    file: FEATURE,
    code: `import { HttpError } from '../../hydra/errors.js'\nexport const refuse = () => new HttpError(403, 'no')\n`,
  },
  declared: {
    file: FEATURE,
    code: [
      `import { ROLE_ADMIN } from '../../core/options.js'`,
      `import type { Endpoint } from '../../hydra/endpoint.js'`,
      `export const probe: Endpoint = {`,
      `  method: 'GET',`,
      `  path: '/_/probe',`,
      `  security: { role: ROLE_ADMIN },`,
      `  cache: 'no-store',`,
      `  handler: async () => ({ status: 200, output: { type: 'Probe', data: { ok: true } } }),`,
      `  docs: { undocumented: 'a fixture' },`,
      `}`,
      ``,
    ].join('\n'),
  },
  normalizerCall: {
    file: FEATURE,
    code: [
      `import type { Resource } from '../../core/registry.js'`,
      `import type { HydraContext } from '../../hydra/context.js'`,
      `import { normalizeItem } from '../../hydra/normalizer.js'`,
      `export const answer = async (resource: Resource, doc: Record<string, unknown>, ctx: HydraContext) =>`,
      `  ({ status: 200, body: await normalizeItem(resource, doc, ctx) })`,
      ``,
    ].join('\n'),
  },
  normalizerInSession: {
    file: 'plugins/cwa/session/probe.ts',
    code: `export { normalizeDocument } from '../hydra/item.js'\n`,
  },
  recordReturned: {
    file: FEATURE,
    code: [
      `import type { Resource } from '../../core/registry.js'`,
      `import { embedItem } from '../../hydra/embedded.js'`,
      `export const item = (resource: Resource, doc: Record<string, unknown>) => ({ status: 200, item: { resource, doc } })`,
      `export const node = (resource: Resource, doc: Record<string, unknown>) =>`,
      `  ({ status: 200, output: { type: 'Probe', data: { member: [embedItem(resource, doc)] } } })`,
      ``,
    ].join('\n'),
  },
  formatLayer: {
    file: 'plugins/cwa/hydra/probe.ts',
    code: `export const node = (context: string) => ({ '@context': context, '@type': 'Probe' })\n`,
  },
}

describe('the policy and format rules', () => {
  const names = Object.keys(fixtures)
  let results: Record<string, Array<{ ruleId: string | null; message: string }>>

  it('lint the fixtures', () => {
    const linted = lint(names.map((name) => fixtures[name]!))
    results = Object.fromEntries(names.map((name, index) => [name, linted[index]!]))
  }, 120_000)

  it("refuse a '@context' literal in a feature", () => {
    expect(results.contextLiteral).toEqual([
      { ruleId: 'no-restricted-syntax', message: expect.stringContaining("No '@context' outside the format layer") },
    ])
  })

  it('refuse a Cache-Control header written by a feature or by the session layer', () => {
    for (const name of ['cacheHeaderProperty', 'cacheHeaderSet']) {
      expect(results[name]).toEqual([
        {
          ruleId: 'no-restricted-syntax',
          message: expect.stringContaining('No Cache-Control header outside the pipeline'),
        },
      ])
    }
  })

  it('refuse a role check in a feature: no 401 or 403 built there, imported or by hand', () => {
    expect(results.roleCheck!.map((m) => m.ruleId)).toEqual(['no-restricted-imports', 'no-restricted-imports'])
    for (const { message } of results.roleCheck!) expect(message).toContain("declare the endpoint's `security`")
    expect(results.refusalBuiltByHand).toEqual([
      { ruleId: 'no-restricted-syntax', message: expect.stringContaining('No 401 or 403 built in a feature') },
    ])
  })

  it('refuse a feature or the session layer importing the normalizer (the pipeline normalizes)', () => {
    for (const name of ['normalizerCall', 'normalizerInSession']) {
      expect(results[name]).toEqual([
        { ruleId: 'no-restricted-imports', message: expect.stringContaining('No normalizer outside the pipeline') },
      ])
    }
  })

  it('accept the declaration (security, cache, output) and the format layer building its own nodes', () => {
    expect(results.declared).toEqual([])
    expect(results.recordReturned).toEqual([])
    expect(results.formatLayer).toEqual([])
  })
})

/**
 * The CWA Nuxt module's editing surface (issue 41), replayed from the
 * recorded list `moduleEditingRequests.json`: every request its editing UI
 * sends to make a page, give it a route, fill it (add, add at the start,
 * publish, move, upload), delete a block, rename the route and list its
 * redirects, in the order a signed-in editor makes them, each checked as
 * the module reads the answer; then what a visitor sees after a reload and
 * the orphan scan. Run with the profile as the module's `dev` branch uses it
 * and prefix-less as its `main` branch does, on the demo site, over real
 * HTTP with the session cookie. docs/front-ends.md lists the same requests
 * ("The module's editing requests"); a test keeps the two in step.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import { seedDemo } from '../../src/seed/demo'
import { startTestServer, type TestServer } from '../support/server'
import { formData } from '../support/uploadFiles'

const P = '/_api'

type Json = any
interface Step {
  by: 'module' | 'check'
  as?: 'anonymous'
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  url: string
  headers?: Record<string, string>
  /** The module replaced every header with these (the upload). */
  onlyHeaders?: Record<string, string>
  body?: Json
  bodyFrom?: { capture: string; omit: string[]; set: Record<string, Json> }
  multipart?: Record<string, { filename: string; width: number; height: number }>
  status: number
  capture?: Record<string, string>
  expect?: Record<string, Json>
  sameAs?: string
}
interface Flow {
  name: string
  source: string
  steps: Step[]
}

const recorded = JSON.parse(readFileSync(new URL('./moduleEditingRequests.json', import.meta.url), 'utf8')) as {
  flows: Flow[]
}

/** `a.b.0.c` in a body; `-1` is the last element; '' the body itself. */
function at(body: Json, path: string): Json {
  if (path === '') return body
  return path.split('.').reduce((value: Json, key) => {
    if (value == null) return undefined
    if (Array.isArray(value) && /^-?\d+$/.test(key)) return value.at(Number(key))
    return value[key]
  }, body)
}

/** `{{name}}` (kept as the captured value's type when it is the whole string), `{{name+1}}`, `{{now}}`. */
function fill(value: Json, vars: Map<string, Json>): Json {
  if (typeof value === 'string') {
    const whole = /^\{\{([\w]+)(\+1)?\}\}$/.exec(value)
    if (whole) {
      const found = whole[1] === 'now' ? new Date().toISOString() : vars.get(whole[1]!)
      if (found === undefined) throw new Error(`Nothing captured as ${whole[1]}`)
      return whole[2] ? Number(found) + 1 : found
    }
    return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      const found = vars.get(name)
      if (found === undefined) throw new Error(`Nothing captured as ${name}`)
      return String(found)
    })
  }
  if (Array.isArray(value)) return value.map((entry) => fill(entry, vars))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, fill(entry, vars)]))
  return value
}

/** An expectation: a value (equal), or `{$length}`, `{$endsWith}`, `{$matches}`, `{$notContains}`. */
function check(actual: Json, wanted: Json, label: string): void {
  if (wanted && typeof wanted === 'object' && !Array.isArray(wanted)) {
    const [operator] = Object.keys(wanted)
    const operand = wanted[operator!]
    if (operator === '$length') return expect({ label, length: actual?.length }).toEqual({ label, length: operand })
    if (operator === '$endsWith')
      return expect({ label, endsWith: String(actual).endsWith(operand) }).toEqual({ label, endsWith: true })
    if (operator === '$matches')
      return expect({ label, value: actual }).toEqual({ label, value: expect.stringMatching(operand) })
    if (operator === '$notContains') {
      expect({ label, isList: Array.isArray(actual) }).toEqual({ label, isList: true })
      return expect({ label, contains: actual.includes(operand) }).toEqual({ label, contains: false })
    }
  }
  expect({ label, value: actual }).toEqual({ label, value: wanted })
}

/** The module requests an IRI as served: with the prefix as it is, without it below the API URL. */
const apiUrl = (url: string) => (url === P || url.startsWith(`${P}/`) ? url : `${P}${url}`)

async function replay(server: TestServer, flow: Flow, vars: Map<string, Json>, session: string): Promise<void> {
  for (const [index, step] of flow.steps.entries()) {
    const label = `${flow.name} #${index + 1}: ${step.method} ${step.url}`
    const url = `${server.url}${apiUrl(fill(step.url, vars))}`
    const headers: Record<string, string> = step.onlyHeaders
      ? { ...step.onlyHeaders }
      : {
          accept: 'application/ld+json,application/json',
          ...(step.method === 'POST' ? { 'content-type': 'application/ld+json' } : {}),
          ...(step.method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {}),
          ...step.headers,
        }
    if (step.as !== 'anonymous') headers.cookie = `api_component=${session}`
    let body: BodyInit | undefined
    if (step.multipart) {
      const parts = await Promise.all(
        Object.entries(step.multipart).map(async ([name, file]) => ({
          name,
          filename: file.filename,
          bytes: await sharp({
            create: { width: file.width, height: file.height, channels: 3, background: '#c03020' },
          })
            .png()
            .toBuffer(),
        })),
      )
      body = formData(parts)
    } else if (step.bodyFrom) {
      const held = { ...vars.get(step.bodyFrom.capture) }
      for (const key of step.bodyFrom.omit) delete held[key]
      body = JSON.stringify({ ...held, ...step.bodyFrom.set })
    } else if (step.body !== undefined) body = JSON.stringify(fill(step.body, vars))
    const response = await fetch(url, { method: step.method, headers, body })
    const text = await response.text()
    const answer = text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text
    expect({ label, status: response.status }).toEqual({
      label,
      status: step.status,
      ...(response.status === step.status ? {} : { answer }),
    })
    // Captured first: a later flow still finds what this step made when one of its checks fails.
    for (const [name, path] of Object.entries(step.capture ?? {})) {
      const value = at(answer, path)
      expect({ label, captured: name, value: value === undefined ? 'missing' : 'found' }).toEqual({
        label,
        captured: name,
        value: 'found',
      })
      vars.set(name, value)
    }
    for (const [path, wanted] of Object.entries(step.expect ?? {}))
      check(at(answer, path), fill(wanted, vars), `${label} ${path}`)
    if (step.sameAs) expect({ label, answer }).toEqual({ label, answer: vars.get(step.sameAs) })
  }
}

const branches: Array<[string, { compat: 'cwa-nuxt'; compatIrisWithoutPrefix?: boolean }]> = [
  ['dev (API prefix in IRIs)', { compat: 'cwa-nuxt' }],
  ['main (compatIrisWithoutPrefix)', { compat: 'cwa-nuxt', compatIrisWithoutPrefix: true }],
]

describe.each(branches)("the module's editing requests, %s", (_branch, options) => {
  let server: TestServer
  let session: string
  const vars = new Map<string, Json>()
  beforeAll(async () => {
    server = await startTestServer({ options })
    await seedDemo(server.payload, { apiPrefix: P })
    session = await server.tokenFor('ROLE_ADMIN')
  })
  afterAll(async () => {
    await server?.close()
  })

  for (const flow of recorded.flows) {
    it(flow.name, async () => {
      await replay(server, flow, vars, session)
    })
  }
})

describe('the recorded list', () => {
  it('is the one docs/front-ends.md writes down: every module request, in order, in its table', () => {
    const docs = readFileSync(new URL('../../docs/front-ends.md', import.meta.url), 'utf8')
    const section = docs.slice(docs.indexOf("## The module's editing requests"))
    expect(section.startsWith("## The module's editing requests")).toBe(true)
    let from = 0
    for (const flow of recorded.flows)
      for (const step of flow.steps.filter((s) => s.by === 'module')) {
        const written = `\`${step.method} ${step.url.replace(/\{\{(\w+)\}\}/g, '{$1}')}\``
        const found = section.indexOf(written, from)
        expect({ flow: flow.name, written, found: found >= 0 }).toEqual({ flow: flow.name, written, found: true })
        from = found
      }
  })
})

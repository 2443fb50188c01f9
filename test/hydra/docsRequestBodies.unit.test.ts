/**
 * The OpenAPI document's request bodies against the endpoints' declared
 * `input` (hydra/input.ts): every endpoint with an input documents exactly
 * its schema (resolved through its component when it names one), required,
 * under each media type the pipeline accepts for it. No database.
 */
import { beforeAll, expect, it } from '@jest/globals'
import { openApiDocument } from '../../plugins/cwa/dist/hydra/docs/openapi/index.js'
import { documentedPath } from '../../plugins/cwa/dist/hydra/docs/openapi/document.js'
import { inputJsonSchema } from '../../plugins/cwa/dist/hydra/input.js'
import type { Endpoint } from '../../plugins/cwa/dist/hydra/endpoint.js'
import { ResourceRegistry } from '../../plugins/cwa/dist/core/registry.js'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
import { allExtensions } from '../../plugins/cwa/dist/hydra/extensions/index.js'
import { apiEndpoints } from '../../plugins/cwa/dist/hydra/pipeline/runtime.js'

type Json = Record<string, any>

let doc: Json
let endpoints: Endpoint[]

beforeAll(async () => {
  const config = await (await import('../../payload.config')).default
  const registry = new ResourceRegistry(config, '/_api')
  const extensions = allExtensions(config)
  endpoints = apiEndpoints(registry, extensions, resolveOptions({ compat: 'cwa-nuxt' }))
  doc = openApiDocument(registry, { title: 'T', version: '1' }, extensions, endpoints)
})

const deref = (node: Json): Json =>
  typeof node.$ref === 'string' ? deref(doc.components.schemas[node.$ref.replace('#/components/schemas/', '')]) : node

it('documents each declared input as its request body, under every media type the endpoint takes', () => {
  const declared = endpoints.filter((e) => e.input)
  expect(declared.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
    'POST /_/orphaned_resources/delete',
    'POST /_/page_builder/blocks',
    'POST /_/page_builder/groups',
    'POST /_/page_builder/positions',
    'POST /_/page_builder/publish',
    'POST /_/page_builder/remove',
    'POST /_/page_builder/reorder',
    'POST /_/page_builder/schedule',
    'POST /_/publish',
    'POST /_/routes/generate',
    'POST /login',
  ])
  for (const endpoint of declared) {
    const operation = doc.paths[documentedPath('/_api', endpoint)][endpoint.method.toLowerCase()]
    const media = endpoint.bodyTypes ?? ['application/ld+json', 'application/json']
    expect(operation.requestBody.required).toBe(true)
    expect(Object.keys(operation.requestBody.content)).toEqual(media)
    for (const type of media)
      expect(deref(operation.requestBody.content[type].schema)).toEqual(inputJsonSchema(endpoint.input!))
    // The request body sits before the responses, where the hand-written operations had it.
    const keys = Object.keys(operation)
    expect(keys.indexOf('requestBody')).toBe(keys.indexOf('responses') - 1)
  }
})

it('keeps the named inputs where their features place them among the components', () => {
  expect(deref({ $ref: '#/components/schemas/Session.Credentials' })).toEqual({
    type: 'object',
    properties: {
      username: { type: 'string', minLength: 1 },
      password: { type: 'string', minLength: 1, format: 'password', writeOnly: true },
    },
    required: ['username', 'password'],
  })
  const names = Object.keys(doc.components.schemas)
  expect(names.indexOf('Publishing.Request')).toBe(names.indexOf('Publishing.Result') - 1)
})

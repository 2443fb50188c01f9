/**
 * Path parameters declared once on the endpoint (`paramDocs`, hydra/pathParameters.ts):
 * the OpenAPI parameter objects are generated from the template and the
 * declaration, and the document carries exactly those. No database.
 */
import { beforeAll, expect, it } from '@jest/globals'
import { openApiDocument } from '../../plugins/cwa/dist/hydra/docs/openapi/index.js'
import { documentedPath } from '../../plugins/cwa/dist/hydra/docs/openapi/document.js'
import { declaredPathParameters } from '../../plugins/cwa/dist/hydra/pathParameters.js'
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

it('generates one required parameter per template parameter, in order, with what paramDocs declares', () => {
  expect(
    declaredPathParameters({
      method: 'GET',
      path: '/a/{username}/{rest+}',
      paramDocs: { rest: { description: 'The rest', schema: { type: 'string', format: 'uuid' } } },
    }),
  ).toEqual({
    username: { name: 'username', in: 'path', required: true, schema: { type: 'string' } },
    rest: {
      name: 'rest',
      in: 'path',
      required: true,
      description: 'The rest',
      schema: { type: 'string', format: 'uuid' },
    },
  })
})

it('refuses a paramDocs entry that names no parameter of the template', () => {
  expect(() => declaredPathParameters({ method: 'GET', path: '/a/{id}', paramDocs: { ids: {} } })).toThrow(
    'GET /a/{id} documents a path parameter "ids" it does not have.',
  )
})

it('documents every endpoint declaring paramDocs with exactly the generated parameters', () => {
  const declared = endpoints.filter((e) => e.paramDocs)
  expect(declared.length).toBeGreaterThanOrEqual(10)
  for (const endpoint of declared) {
    const operation = doc.paths[documentedPath('/_api', endpoint)][endpoint.method.toLowerCase()]
    const inPath = (operation.parameters as Json[]).filter((p) => p.in === 'path')
    expect(inPath).toEqual(Object.values(declaredPathParameters(endpoint)))
    for (const [name, { description }] of Object.entries(endpoint.paramDocs!))
      expect(inPath.find((p) => p.name === name)?.description).toBe(description)
  }
})

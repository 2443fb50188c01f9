/**
 * Path parameters declared once on the endpoint (`paramDocs`, hydra/pathParameters.ts):
 * the OpenAPI parameter objects are generated from the template and the
 * declaration, and the document carries exactly those. No database.
 */
import { beforeAll, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
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

it('names a parameter as the document does, in its object and its documented path, or refers to a shared one', () => {
  const endpoint = {
    method: 'GET',
    path: '/routes/{route+}/children/{id}',
    paramDocs: { route: { name: 'id', description: 'The route' }, id: { ref: 'id' } },
  }
  expect(declaredPathParameters(endpoint)).toEqual({
    route: { name: 'id', in: 'path', required: true, description: 'The route', schema: { type: 'string' } },
    id: { $ref: '#/components/parameters/id' },
  })
  expect(documentedPath('/_api', endpoint as unknown as Endpoint)).toBe('/_api/routes/{id}/children/{id}')
})

it('documents every endpoint with exactly the generated path parameters, on its path or its operation', () => {
  const documented = endpoints.filter((e) => !e.root && typeof e.docs === 'function')
  expect(documented.filter((e) => e.paramDocs).length).toBeGreaterThanOrEqual(20)
  const isPathParameter = (p: Json) => p.in === 'path' || p.$ref === '#/components/parameters/id'
  for (const endpoint of documented) {
    const pathItem = doc.paths[documentedPath('/_api', endpoint)]
    const operation = pathItem[endpoint.method.toLowerCase()]
    const inPath = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].filter(isPathParameter)
    expect({ endpoint: `${endpoint.method} ${endpoint.path}`, inPath }).toEqual({
      endpoint: `${endpoint.method} ${endpoint.path}`,
      inPath: Object.values(declaredPathParameters(endpoint)),
    })
    for (const [name, { description }] of Object.entries(endpoint.paramDocs ?? {}))
      expect(inPath.find((p) => p.name === (endpoint.paramDocs![name]!.name ?? name))?.description).toBe(description)
  }
})

it('writes no path parameter object by hand: every one comes from an endpoint declaration', () => {
  const written = execFileSync('grep', ['-rln', "in: 'path'", 'plugins/cwa', '--include=*.ts', '--exclude-dir=dist'], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .sort()
  // The generator, and the document's shared `{id}` component.
  expect(written).toEqual(['plugins/cwa/hydra/docs/openapi/document.ts', 'plugins/cwa/hydra/pathParameters.ts'])
})

/**
 * Unit tests of the API documentation generators (OpenAPI 3.1, Hydra
 * ApiDocumentation, Swagger UI page) against the reference site's sanitized
 * config. No database, no server: the config is built, never connected.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync } from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import jsonld from 'jsonld'
import type { Field, SanitizedConfig } from 'payload'
import { docsHtml, docsInitScript, swaggerAssetsDir } from '../../plugins/cwa/dist/hydra/docs/html.js'
import { hydraDocumentation } from '../../plugins/cwa/dist/hydra/docs/hydraDocumentation.js'
import { openApiDocument, resourceProperties, schemaNames } from '../../plugins/cwa/dist/hydra/docs/openapi/index.js'
import { entrypoint } from '../../plugins/cwa/dist/hydra/entrypoint.js'
import { normalizeDocument, outputFields } from '../../plugins/cwa/dist/hydra/item.js'
import { entrypointContext, errorContext, resourceContext } from '../../plugins/cwa/dist/hydra/jsonldContext.js'
import { dataFields, type Resource, ResourceRegistry } from '../../plugins/cwa/dist/core/registry.js'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
import { publishableExtension, publishableOf } from '../../plugins/cwa/dist/features/publishable/index.js'
import { allExtensions } from '../../plugins/cwa/dist/hydra/extensions/index.js'
import { apiEndpoints } from '../../plugins/cwa/dist/hydra/pipeline/runtime.js'
import { sessionSecuritySchemes } from '../../plugins/cwa/dist/session/index.js'
import { lowerFirst } from '../../plugins/cwa/dist/core/utils/naming.js'

type Json = Record<string, any>

const BASE_URL = 'http://api.test'
const PREFIX = '/_api'
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const HYDRA = 'http://www.w3.org/ns/hydra/core#'

let config: SanitizedConfig
let registry: ResourceRegistry
let doc: Json

beforeAll(async () => {
  config = await (await import('../../payload.config')).default
  registry = new ResourceRegistry(config, PREFIX)
  const extensions = allExtensions(config)
  const info = {
    title: 'Test API',
    version: '1.2.3',
    serverUrl: `${BASE_URL}/`,
    securitySchemes: sessionSecuritySchemes(resolveOptions({})),
  }
  doc = openApiDocument(registry, info, extensions, apiEndpoints(registry, extensions))
})

// ------------------------------------------------------------------ helpers

/** Resolves a local JSON pointer (`#/components/schemas/X`). */
function resolvePointer(root: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Not a local reference: ${ref}`)
  let node: unknown = root
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (!node || typeof node !== 'object' || !(key in (node as Json))) return undefined
    node = (node as Json)[key]
  }
  return node
}

/** Every `$ref` of a document with the JSON path where it sits. */
function collectRefs(node: unknown, at = '#', out: Array<{ at: string; ref: string }> = []) {
  if (Array.isArray(node)) node.forEach((v, i) => collectRefs(v, `${at}/${i}`, out))
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push({ at, ref: value })
      else collectRefs(value, `${at}/${key}`, out)
    }
  }
  return out
}

const deref = (root: Json, node: Json): Json =>
  node && typeof node.$ref === 'string' ? deref(root, resolvePointer(root, node.$ref) as Json) : node

/** Every schema object nested in a JSON Schema (for structural checks). */
function walkSchemas(schema: unknown, visit: (s: Json, at: string) => void, at = ''): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return
  const s = schema as Json
  visit(s, at)
  for (const [key, sub] of Object.entries(s.properties ?? {})) walkSchemas(sub, visit, `${at}.${key}`)
  if (s.items) walkSchemas(s.items, visit, `${at}[]`)
  for (const k of ['allOf', 'oneOf', 'anyOf'])
    (s[k] ?? []).forEach((sub: unknown, i: number) => walkSchemas(sub, visit, `${at}/${k}${i}`))
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/**
 * A small JSON Schema validator for the keywords the generator uses ($ref,
 * allOf, oneOf, type, enum, const, properties, required, items, min/maxItems,
 * formats uuid / date-time / iri-reference / email). Returns the errors.
 */
function validate(root: Json, schema: Json, value: unknown, at = '$'): string[] {
  if (schema.$ref) return validate(root, resolvePointer(root, schema.$ref) as Json, value, at)
  const errors: string[] = []
  for (const sub of schema.allOf ?? []) errors.push(...validate(root, sub, value, at))
  if (schema.oneOf) {
    const passing = (schema.oneOf as Json[]).filter((sub) => validate(root, sub, value, at).length === 0).length
    if (passing !== 1) errors.push(`${at}: matches ${passing} oneOf branches`)
  }
  if (schema.type !== undefined) {
    const types = [schema.type].flat() as string[]
    const actual = typeOf(value)
    const ok = types.some((t) => t === actual || (t === 'integer' && actual === 'number' && Number.isInteger(value)))
    if (!ok) return [...errors, `${at}: expected ${types.join('|')}, got ${actual} (${JSON.stringify(value)})`]
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value))
    errors.push(`${at}: ${JSON.stringify(value)} not in enum`)
  if ('const' in schema && schema.const !== value) errors.push(`${at}: expected const ${JSON.stringify(schema.const)}`)
  if (typeof value === 'string' && schema.format) {
    const checks: Record<string, RegExp> = {
      uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
      'iri-reference': /^[^\s<>"{}|\\^`]*$/,
      email: /^[^\s@]+@[^\s@]+$/,
    }
    if (checks[schema.format] && !checks[schema.format]!.test(value))
      errors.push(`${at}: not a ${schema.format}: ${value}`)
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const name of schema.required ?? []) if (!(name in (value as Json))) errors.push(`${at}: missing ${name}`)
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (name in (value as Json)) errors.push(...validate(root, sub as Json, (value as Json)[name], `${at}.${name}`))
    }
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) errors.push(`${at}: too few items`)
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) errors.push(`${at}: too many items`)
    if (schema.items) value.forEach((v, i) => errors.push(...validate(root, schema.items, v, `${at}[${i}]`)))
  }
  return errors
}

let uuidCounter = 0
const uuid = () => `00000000-0000-4000-8000-${String(++uuidCounter).padStart(12, '0')}`

/** A stored document (as Payload returns it at depth 0) with a value in every field, or only the required ones. */
function sampleDoc(resource: Resource, { sparse = false } = {}): Json {
  const doc: Json = { id: uuid(), createdAt: '2024-01-02T03:04:05.000Z', updatedAt: '2024-02-03T04:05:06.000Z' }
  for (const field of dataFields(resource.collection.fields) as Array<Field & { name: string } & Json>) {
    if (sparse && !field.required) continue
    const one = (): unknown => {
      switch (field.type) {
        case 'number':
          return 3
        case 'checkbox':
          return true
        case 'date':
          return '2024-05-06T07:08:09.000Z'
        case 'email':
          return 'someone@example.com'
        case 'select':
        case 'radio':
          return typeof field.options[0] === 'string' ? field.options[0] : field.options[0].value
        case 'relationship':
        case 'upload':
          return Array.isArray(field.relationTo) ? { relationTo: field.relationTo[0], value: uuid() } : uuid()
        case 'json':
          // A JSON field of a declared shape (allowedComponents: a list of IRIs) gets a value of that shape.
          return field.custom?.cwa?.schema?.type === 'array' ? ['/component/titles'] : { any: ['json', 1] }
        case 'array':
        case 'blocks':
          return []
        case 'group':
          return {}
        default:
          return 'text'
      }
    }
    if (field.type === 'join') doc[field.name] = { docs: [{ id: uuid() }], hasNextPage: false }
    else doc[field.name] = field.hasMany ? [one(), one()] : one()
  }
  return doc
}

/**
 * The JSON-LD item the API serves for a stored document: document fields plus
 * the built-in extensions' output and, for publishable types, the publishable
 * extension itself (run for a caller with or without the publish permission,
 * the default ROLE_ADMIN).
 */
function sampleItem(resource: Resource, stored: Json, { permitted = false }: { permitted?: boolean } = {}): Json {
  const item = normalizeDocument(resource, stored, { registry } as never) as Json
  // Every resource carries _metadata (the built-in extension), persisted: true.
  item._metadata = { persisted: true }
  // The Collection component's proxied collection (features/collectionComponent/extension.ts): null when nothing is shown.
  if (resource.meta.shortName === 'Collection') item.collection = null
  if (resource.meta.kind === 'user') item.roles = ['ROLE_USER', 'ROLE_ALLOWED_TO_SWITCH']
  if (publishableOf(resource)) {
    const ctx = {
      registry,
      options: resolveOptions(),
      user: permitted ? { id: uuid(), roles: ['ROLE_ADMIN'] } : null,
      memo: new Map(),
      query: new URLSearchParams(),
      payload: null,
      req: null,
    }
    publishableExtension.normalizeItem!(item, stored, resource, ctx as never)
  }
  return { '@context': `${PREFIX}/contexts/${resource.meta.shortName}`, ...item }
}

const publishableResources = () => registry.all().filter((r) => publishableOf(r) !== null)

// ------------------------------------------------------------------ OpenAPI

describe('OpenAPI document', () => {
  it('is an OpenAPI 3.1.0 document with info, servers and components', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info).toMatchObject({ title: 'Test API', version: '1.2.3' })
    expect(doc.servers).toEqual([{ url: BASE_URL }])
    expect(Object.keys(doc.components.schemas).length).toBeGreaterThan(0)
    expect(
      Object.keys(doc).every((k) =>
        [
          'openapi',
          'info',
          'servers',
          'tags',
          'paths',
          'components',
          'jsonSchemaDialect',
          'security',
          'webhooks',
          'externalDocs',
        ].includes(k),
      ),
    ).toBe(true)
    expect(() => JSON.parse(JSON.stringify(doc))).not.toThrow()
  })

  it('resolves every $ref', () => {
    const refs = collectRefs(doc)
    expect(refs.length).toBeGreaterThan(50)
    const broken = refs.filter(({ ref }) => resolvePointer(doc, ref) === undefined)
    expect(broken).toEqual([])
    // References point to the right component kind.
    for (const { at, ref } of refs) {
      if (at.endsWith('/schema') || at.includes('/schemas/') || at.includes('/properties/') || at.includes('/items'))
        continue
      if (/\/responses\/\d{3}$/.test(at)) expect(ref).toMatch(/^#\/components\/responses\//)
      if (/\/parameters\/\d+$/.test(at)) expect(ref).toMatch(/^#\/components\/parameters\//)
    }
  })

  it('gives every path operations with responses, unique operation ids and declared path parameters', () => {
    const ids = new Set<string>()
    const tags = new Set((doc.tags as Json[]).map((t) => t.name))
    for (const [p, pathItem] of Object.entries(doc.paths as Json)) {
      expect(p.startsWith('/')).toBe(true)
      const ops = HTTP_METHODS.filter((m) => pathItem[m])
      expect(ops.length).toBeGreaterThan(0)
      for (const method of ops) {
        const op = pathItem[method] as Json
        expect(typeof op.operationId).toBe('string')
        expect(ids.has(op.operationId)).toBe(false)
        ids.add(op.operationId)
        for (const tag of op.tags ?? []) expect(tags.has(tag)).toBe(true)
        const codes = Object.keys(op.responses)
        expect(codes.length).toBeGreaterThan(0)
        for (const code of codes) {
          expect(code).toMatch(/^[1-5]\d\d$/)
          expect(typeof deref(doc, op.responses[code]).description).toBe('string')
        }
        const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((x: Json) => deref(doc, x))
        const keys = params.map((x) => `${x.in}:${x.name}`)
        expect(new Set(keys).size).toBe(keys.length)
        for (const x of params) {
          expect(['query', 'path', 'header', 'cookie']).toContain(x.in)
          expect(x.schema).toBeDefined()
          if (x.in === 'path') expect(x.required).toBe(true)
        }
        const templated = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
        expect(
          params
            .filter((x) => x.in === 'path')
            .map((x) => x.name)
            .sort(),
        ).toEqual(templated.sort())
        if (op.requestBody) expect(Object.keys(deref(doc, op.requestBody).content).length).toBeGreaterThan(0)
      }
    }
  })

  it('has only well-formed schemas', () => {
    for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
      expect(name).toMatch(/^[a-zA-Z0-9._-]+$/)
      walkSchemas(schema, (s, at) => {
        const where = `${name}${at}`
        if (s.type !== undefined)
          for (const t of [s.type].flat()) expect([where, JSON_TYPES.has(t)]).toEqual([where, true])
        if (s.required) {
          expect(Array.isArray(s.required)).toBe(true)
          for (const r of s.required) expect([where, r, r in (s.properties ?? {})]).toEqual([where, r, true])
        }
        if (Array.isArray(s.type) && s.type.includes('null') && s.enum) expect(s.enum).toContain(null)
        if ([s.type].flat().includes('array')) expect([where, s.items !== undefined]).toEqual([where, true])
        expect(s.nullable).toBeUndefined() // 3.0 keyword, not 3.1
      })
    }
  })

  it('describes every resource of the registry with its five operations', () => {
    expect(registry.all().length).toBeGreaterThan(5)
    for (const resource of registry.all()) {
      const collection = doc.paths[resource.collectionIri]
      const item = doc.paths[`${resource.collectionIri}/{id}`]
      expect(
        Object.keys(collection)
          .filter((k) => HTTP_METHODS.includes(k))
          .sort(),
      ).toEqual(['get', 'post'])
      expect(
        Object.keys(item)
          .filter((k) => HTTP_METHODS.includes(k))
          .sort(),
      ).toEqual(['delete', 'get', 'patch'])
      expect(Object.keys(collection.get.responses).sort()).toEqual(['200', '400', '401', '403', '422'])
      // A group's POST may take over an owner-less group (200) or find its owner holding it already (409).
      expect(Object.keys(collection.post.responses).sort()).toEqual(
        resource.slug === 'component_groups'
          ? ['200', '201', '400', '401', '403', '409', '415', '422']
          : ['201', '400', '401', '403', '415', '422'],
      )
      expect(Object.keys(item.get.responses).sort()).toEqual(['200', '400', '401', '403', '404'])
      expect(Object.keys(item.patch.responses).sort()).toEqual(['200', '400', '401', '403', '404', '412', '415', '422'])
      expect(Object.keys(item.delete.responses).sort()).toEqual(['204', '401', '403', '404'])
      expect(Object.keys(collection.post.requestBody.content)).toContain('application/ld+json')
      expect(Object.keys(item.patch.requestBody.content)).toEqual(['application/merge-patch+json'])
      expect(collection.post.responses['201'].headers.Location).toBeDefined()
      expect(item.delete.responses['204'].content).toBeUndefined()
      expect(deref(doc, collection.post.responses['422']).content['application/ld+json'].schema.$ref).toBe(
        '#/components/schemas/Hydra.ConstraintViolation',
      )
      expect(deref(doc, item.get.responses['404']).content['application/ld+json'].schema.$ref).toBe(
        '#/components/schemas/Hydra.Error',
      )
      for (const name of Object.values(schemaNames)) expect(doc.components.schemas[name(resource)]).toBeDefined()
    }
  })

  it('has the entrypoint, login and current-user operations', () => {
    const user = registry.ofKind('user')[0]!
    expect(doc.paths[`${PREFIX}/`].get.responses['200'].content['application/ld+json'].schema.$ref).toBe(
      '#/components/schemas/Hydra.Entrypoint',
    )
    const login = doc.paths[`${PREFIX}/login`].post
    expect(deref(doc, login.requestBody.content['application/json'].schema)).toMatchObject({
      required: ['username', 'password'],
      properties: { username: { type: 'string' }, password: { type: 'string' } },
    })
    expect(Object.keys(login.responses).sort()).toEqual(['204', '400', '401', '415'])
    const me = doc.paths[`${PREFIX}/me`].get
    expect(me.responses['200'].content['application/ld+json'].schema.$ref).toBe(
      `#/components/schemas/${schemaNames.read(user)}`,
    )
    expect(Object.keys(me.responses)).toContain('401')
  })

  it('declares the collection parameters of each resource', () => {
    for (const resource of registry.all()) {
      const { meta } = resource
      const params = (doc.paths[resource.collectionIri].get.parameters as Json[]).map((x) => deref(doc, x))
      const names = params.map((x) => x.name)
      expect(names).toContain('page')
      expect(names.includes('itemsPerPage')).toBe(meta.clientItemsPerPage ?? true)
      expect(names.includes('search')).toBe((meta.search?.length ?? 0) > 0)
      for (const order of meta.order ?? []) {
        expect(params.find((x) => x.name === `order[${order}]`)?.schema).toEqual({
          type: 'string',
          enum: ['asc', 'desc'],
        })
      }
      expect(names.filter((n) => n.startsWith('order[')).length).toBe(meta.order?.length ?? 0)
      for (const name of meta.booleanFilters ?? []) {
        expect(names).toContain(name)
        expect(names).toContain(`${name}[]`)
      }
      const perPage = params.find((x) => x.name === 'itemsPerPage')
      if (perPage) expect(perPage.schema.default).toBe(meta.itemsPerPage ?? 30)
    }
    expect(registry.all().some((r) => (r.meta.booleanFilters?.length ?? 0) > 0)).toBe(true)
  })

  it('derives read schemas from the serialized fields, relations as IRIs', () => {
    for (const resource of registry.all()) {
      const schema = doc.components.schemas[schemaNames.read(resource)] as Json
      const jsonNames = outputFields(resource).map((o) => o.json)
      for (const name of ['@id', '@type', 'id', ...jsonNames])
        expect([resource.slug, name, name in schema.properties]).toEqual([resource.slug, name, true])
      expect(schema.properties['@type'].const).toBe(resource.meta.shortName)
      for (const json of resource.meta.writeOnly ?? []) expect(schema.properties[json]).toBeUndefined()
      for (const { field, json } of outputFields(resource)) {
        const property = schema.properties[json] as Json
        const iri = (s: Json) => expect(s).toMatchObject({ format: 'iri-reference' })
        if (field.type === 'relationship' || field.type === 'upload' || field.type === 'join') {
          const many = [property.type].flat().includes('array')
          if (many) iri(property.items)
          else iri(property)
          expect([property.type, property.items?.type].flat()).toContain('string')
        }
        if (field.type === 'date') expect(property.format).toBe('date-time')
        if (field.type === 'checkbox') expect([property.type].flat()).toContain('boolean')
        if (field.type === 'join') expect(property.readOnly).toBe(true)
      }
      const timestamps = resource.meta.timestamped || resource.meta.showCreatedAt || resource.meta.kind === 'pageData'
      expect('createdAt' in schema.properties).toBe(Boolean(timestamps))
      expect('modifiedAt' in schema.properties).toBe(Boolean(resource.meta.timestamped))
      // Every resource carries _metadata (persisted: true at least).
      expect('_metadata' in schema.properties).toBe(true)
    }
  })

  it('validates the items and collections the normalizer produces against the read schemas', () => {
    for (const resource of registry.all()) {
      for (const [sparse, permitted] of [
        [false, false],
        [true, false],
        [false, true],
        [true, true],
      ]) {
        const item = sampleItem(resource, sampleDoc(resource, { sparse }), { permitted })
        expect([
          resource.slug,
          sparse,
          permitted,
          validate(doc, { $ref: `#/components/schemas/${schemaNames.read(resource)}` }, item),
        ]).toEqual([resource.slug, sparse, permitted, []])
      }
      const { '@context': _context, ...member } = sampleItem(resource, sampleDoc(resource))
      const collection = {
        '@context': `${PREFIX}/contexts/${resource.meta.shortName}`,
        '@id': resource.collectionIri,
        '@type': 'Collection',
        totalItems: 1,
        member: [member],
        view: {
          '@id': `${resource.collectionIri}?page=1`,
          '@type': 'PartialCollectionView',
          first: `${resource.collectionIri}?page=1`,
          last: `${resource.collectionIri}?page=1`,
        },
      }
      expect(validate(doc, { $ref: `#/components/schemas/${schemaNames.collection(resource)}` }, collection)).toEqual(
        [],
      )
      // A member of the wrong type is refused: the collection schema does check its members.
      expect(
        validate(
          doc,
          { $ref: `#/components/schemas/${schemaNames.collection(resource)}` },
          { ...collection, member: [{ ...member, '@type': 'Nope' }] },
        ).length,
      ).toBeGreaterThan(0)
    }
    expect(validate(doc, { $ref: '#/components/schemas/Hydra.Entrypoint' }, entrypoint(registry))).toEqual([])
  })

  it('leaves a field with field-level read access out of the required read properties (it is omitted for callers who may not read it)', () => {
    const user = registry.ofKind('user')[0]!
    const read = doc.components.schemas[schemaNames.read(user)] as Json
    const guarded = outputFields(user).filter(
      ({ field }) => 'access' in field && (field.access as Json | undefined)?.read,
    )
    expect(guarded.map(({ json }) => json)).toContain('enabled')
    for (const { json } of guarded) {
      expect(read.properties[json]).toBeDefined()
      expect(read.required).not.toContain(json)
    }
    const { enabled: _enabled, ...withoutEnabled } = sampleItem(user, sampleDoc(user))
    expect(validate(doc, { $ref: `#/components/schemas/${schemaNames.read(user)}` }, withoutEnabled)).toEqual([])
  })

  describe('publishable types', () => {
    it('are the reference types the deployment makes publishable', () => {
      expect(
        publishableResources()
          .map((r) => r.meta.shortName)
          .sort(),
      ).toEqual(['FileDownload', 'HtmlContent', 'Image', 'NavigationLink', 'NewsArticleData'])
    })

    it('describe publishedAt (writable date), publishedResource and draftResource (read-only IRIs of their own type)', () => {
      for (const resource of publishableResources()) {
        const names = publishableOf(resource)!
        const read = doc.components.schemas[schemaNames.read(resource)] as Json
        const write = doc.components.schemas[schemaNames.write(resource)] as Json
        const publishedAt = read.properties[names.publishedAt]
        expect([resource.slug, publishedAt.format, publishedAt.type]).toEqual([
          resource.slug,
          'date-time',
          ['string', 'null'],
        ])
        expect(publishedAt.description).toMatch(/draft/)
        expect(write.properties[names.publishedAt]).toBeDefined()
        for (const twin of [names.publishedResource, names.draftResource]) {
          const property = read.properties[twin]
          expect([resource.slug, twin, property.format, property.type, property.readOnly]).toEqual([
            resource.slug,
            twin,
            'iri-reference',
            ['string', 'null'],
            true,
          ])
          expect(property.description).toMatch(/publish permission/)
          expect(write.properties[twin]).toBeUndefined()
          expect(read.required).toContain(twin)
        }
      }
    })

    it('describe _metadata.publishable for every caller and _metadata.violations for permitted callers', () => {
      for (const resource of publishableResources()) {
        const metadata = (doc.components.schemas[schemaNames.read(resource)] as Json).properties._metadata
        expect(metadata.required).toEqual(['publishable'])
        expect(metadata.additionalProperties).toBe(true)
        const publishable = metadata.properties.publishable
        expect(publishable.required).toEqual(['published', 'publishedAt', 'locationCount'])
        expect(publishable.properties.published.type).toBe('boolean')
        expect(publishable.properties.publishedAt).toMatchObject({ type: ['string', 'null'], format: 'date-time' })
        expect([publishable.properties.locationCount.type].flat()).toEqual(
          resource.meta.kind === 'component' ? ['integer', 'null'] : ['null'],
        )
        expect(metadata.properties.violations).toMatchObject({
          type: 'array',
          items: { required: ['propertyPath', 'message', 'code'] },
        })
        expect(metadata.required).not.toContain('violations')
      }
      for (const resource of registry.ofKind('component').filter((r) => !publishableOf(r))) {
        const metadata = (doc.components.schemas[schemaNames.read(resource)] as Json).properties._metadata
        expect(metadata.properties?.publishable).toBeUndefined()
      }
    })

    it('validate what the publishable extension serves to each caller, and refuse a malformed _metadata', () => {
      for (const resource of publishableResources()) {
        const names = publishableOf(resource)!
        const schema = { $ref: `#/components/schemas/${schemaNames.read(resource)}` }
        const stored = {
          ...sampleDoc(resource),
          [names.publishedAt]: '2024-05-06T07:08:09.000Z',
          [names.publishedResource]: null,
        }
        const anonymous = sampleItem(resource, stored)
        expect(anonymous._metadata.publishable).toMatchObject({
          published: true,
          publishedAt: '2024-05-06T07:08:09.000Z',
        })
        expect(anonymous._metadata).not.toHaveProperty('violations')
        expect(anonymous[names.draftResource]).toBeNull()
        expect(validate(doc, schema, anonymous)).toEqual([])
        const draft = sampleItem(
          resource,
          { ...sampleDoc(resource, { sparse: true }), [names.publishedAt]: null },
          { permitted: true },
        )
        expect(draft._metadata.publishable.published).toBe(false)
        expect(Array.isArray(draft._metadata.violations)).toBe(true)
        expect(validate(doc, schema, draft)).toEqual([])
        const broken = [
          { ...anonymous, _metadata: {} },
          { ...anonymous, _metadata: { publishable: { ...anonymous._metadata.publishable, published: 'yes' } } },
          { ...anonymous, _metadata: { publishable: { published: true, publishedAt: null } } },
          {
            ...anonymous,
            _metadata: { publishable: { ...anonymous._metadata.publishable, publishedAt: 'yesterday' } },
          },
          { ...draft, _metadata: { ...draft._metadata, violations: [{ propertyPath: 'html' }] } },
        ]
        for (const item of broken)
          expect([resource.slug, validate(doc, schema, item).length > 0]).toEqual([resource.slug, true])
      }
    })

    it('document ?published= on the collection GET, the item GET and the item DELETE of publishable types only', () => {
      for (const resource of registry.all()) {
        const collection = doc.paths[resource.collectionIri]
        const item = doc.paths[`${resource.collectionIri}/{id}`]
        const published = (op: Json) =>
          ((op.parameters ?? []) as Json[]).map((x) => deref(doc, x)).find((x) => x.name === 'published')
        const expected = publishableOf(resource) !== null
        for (const op of [collection.get, item.get, item.delete]) {
          const parameter = published(op)
          expect([resource.slug, parameter !== undefined]).toEqual([resource.slug, expected])
          if (parameter) expect(parameter).toMatchObject({ in: 'query', required: false, schema: { type: 'boolean' } })
        }
        expect(published(collection.post)).toBeUndefined()
        if (expected) {
          expect(published(item.get)!.description).toMatch(/404/)
          expect(published(item.delete)!.description).toMatch(/only the published version/)
          expect(collection.post.description).toMatch(/draft/)
          expect(item.patch.description).toMatch(/publishedAt/)
        }
      }
    })

    it('document POST {prefix}/_/publish: {iris: [...]} in, 200 {published: [...]} out', () => {
      const op = doc.paths[`${PREFIX}/_/publish`]?.post
      expect(op).toBeDefined()
      expect(op.tags).toEqual(['Publishing'])
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '415', '422'])
      const request = deref(doc, op.requestBody.content['application/ld+json'].schema)
      expect(request).toMatchObject({
        required: ['iris'],
        properties: { iris: { type: 'array', minItems: 1, maxItems: 200, items: { format: 'iri-reference' } } },
      })
      const requestRef = { $ref: op.requestBody.content['application/json'].schema.$ref }
      expect(validate(doc, requestRef, { iris: [`${PREFIX}/component/html_contents/${uuid()}`] })).toEqual([])
      expect(validate(doc, requestRef, { iris: [] }).length).toBeGreaterThan(0)
      expect(validate(doc, requestRef, {}).length).toBeGreaterThan(0)
      const result = { $ref: op.responses['200'].content['application/ld+json'].schema.$ref }
      const published = publishableResources().map((resource) => {
        const names = publishableOf(resource)!
        const { '@context': _c, ...member } = sampleItem(
          resource,
          { ...sampleDoc(resource), [names.publishedAt]: '2024-05-06T07:08:09.000Z', [names.publishedResource]: null },
          { permitted: true },
        )
        return member
      })
      expect(
        validate(doc, result, { '@context': `${PREFIX}/contexts/Entrypoint`, '@type': 'PublishResult', published }),
      ).toEqual([])
      expect(
        validate(doc, result, { '@type': 'PublishResult', published: [{ '@type': 'Title' }] }).length,
      ).toBeGreaterThan(0)
    })
  })

  describe('endpoints mounted by plugins', () => {
    /** Every endpoint a plugin mounts (beyond the generic resource operations), as [path, method]. */
    const pluginEndpoints: Array<[string, string]> = [
      [`${PREFIX}/component/forms/{id}/submit`, 'post'],
      [`${PREFIX}/component/forms/{id}/submit`, 'patch'],
      [`${PREFIX}/_/routes/{id}`, 'get'],
      [`${PREFIX}/_/routes/{id}`, 'patch'],
      [`${PREFIX}/_/routes/{id}`, 'delete'],
      [`${PREFIX}/_/routes/generate`, 'post'],
      [`${PREFIX}/_/routes/{id}/children`, 'get'],
      [`${PREFIX}/_/resource_manifest/{id}`, 'get'],
      [`${PREFIX}/password/reset/request/{username}`, 'get'],
      [`${PREFIX}/verify-email/{username}/{token}`, 'get'],
      [`${PREFIX}/resend-verify-email/{username}`, 'get'],
      [`${PREFIX}/confirm-email/{username}/{emailAddress}/{token}`, 'get'],
      [`${PREFIX}/resend-verify-new-email/{username}`, 'get'],
    ]

    it.each(pluginEndpoints)('document %s (%s) with its responses', (path, method) => {
      const op = doc.paths[path]?.[method]
      expect(op).toBeDefined()
      expect(typeof op.summary).toBe('string')
      expect(Object.keys(op.responses).length).toBeGreaterThan(1)
      const declared = [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])].map(
        (p: Json) => `{${deref(doc, p).name}}`,
      )
      for (const parameter of path.match(/\{[^}]+\}/g) ?? []) expect(declared).toContain(parameter)
    })

    it('offer the session cookie as a security scheme', () => {
      expect(doc.components.securitySchemes.cookieAuth).toMatchObject({
        type: 'apiKey',
        in: 'cookie',
        name: 'api_component',
      })
    })
  })

  it('derives write schemas: no read-only, join or virtual fields, write-only ones included', () => {
    let checkedReadOnly = 0
    let checkedWriteOnly = 0
    let checkedJoin = 0
    let checkedVirtual = 0
    for (const resource of registry.all()) {
      const { meta } = resource
      const write = doc.components.schemas[schemaNames.write(resource)] as Json
      const patch = doc.components.schemas[schemaNames.patch(resource)] as Json
      const read = doc.components.schemas[schemaNames.read(resource)] as Json
      expect(Object.keys(patch.properties).sort()).toEqual(Object.keys(write.properties).sort())
      expect(patch.required).toBeUndefined()
      for (const key of ['id', '@id', '@type', 'createdAt', 'modifiedAt', '_metadata'])
        expect(write.properties[key]).toBeUndefined()
      const reverse = new Map(Object.entries(meta.aliases ?? {}).map(([json, name]) => [name, json]))
      for (const field of dataFields(resource.collection.fields)) {
        const json = reverse.get(field.name) ?? field.name
        if ((meta.readOnly ?? []).includes(field.name)) {
          expect(write.properties[json]).toBeUndefined()
          expect(read.properties[json]?.readOnly).toBe(true)
          checkedReadOnly++
        }
        if (field.type === 'join') {
          expect(write.properties[json]).toBeUndefined()
          checkedJoin++
        }
        // A virtual field listed as write-only is a transient input (an upload's file property), checked below.
        if ('virtual' in field && field.virtual && !(meta.writeOnly ?? []).includes(json)) {
          expect(write.properties[json]).toBeUndefined()
          checkedVirtual++
        }
      }
      for (const json of meta.writeOnly ?? []) {
        expect(write.properties[json]).toMatchObject({ writeOnly: true })
        expect(read.properties[json]).toBeUndefined()
        checkedWriteOnly++
      }
      // Every writable property of the read schema is in the write schema, and the reverse holds for readable ones.
      for (const [json, property] of Object.entries(read.properties as Json)) {
        if (json.startsWith('@')) continue
        expect([resource.slug, json, json in write.properties]).toEqual([
          resource.slug,
          json,
          !(property as Json).readOnly,
        ])
      }
      for (const name of write.required ?? []) expect(write.properties[name].type).not.toContain('null')
    }
    expect(checkedReadOnly).toBeGreaterThan(0)
    expect(checkedWriteOnly).toBeGreaterThan(0)
    expect(checkedJoin).toBeGreaterThan(0)
    expect(checkedVirtual).toBeGreaterThan(0)
  })

  it('asks on POST for the required fields without default values', () => {
    for (const resource of registry.all()) {
      const write = doc.components.schemas[schemaNames.write(resource)] as Json
      const required = new Set<string>(write.required ?? [])
      for (const p of resourceProperties(resource, registry)) {
        if (!p.writable || !p.field) continue
        const field = p.field as Json
        const expected = field.required === true && field.defaultValue === undefined
        expect([resource.slug, p.json, required.has(p.json)]).toEqual([resource.slug, p.json, expected])
      }
    }
    const user = registry.ofKind('user')[0]!
    const passwordJson = Object.entries(user.meta.aliases ?? {}).find(([, name]) => name === 'password')?.[0]
    if (passwordJson) expect(doc.components.schemas[schemaNames.write(user)].required).toContain(passwordJson)
  })

  it('is derived from the registry alone: another subset and API prefix give another valid document', () => {
    const subset = config.collections.filter((c) => registry.bySlug(c.slug)?.meta.kind === 'core').slice(0, 2)
    const small = new ResourceRegistry({ collections: subset }, '')
    // The core alone (no session, no features): the entrypoint, the contexts and the resources' operations.
    const other = openApiDocument(small, { title: 'Small', version: '0' }, [], apiEndpoints(small, []))
    expect(other.servers).toBeUndefined()
    const paths = Object.keys(other.paths as Json)
    expect(paths).toEqual([
      '/',
      '/contexts/{type}',
      ...small.all().flatMap((r) => [r.collectionIri, `${r.collectionIri}/{id}`]),
    ])
    expect(collectRefs(other).filter(({ ref }) => resolvePointer(other as Json, ref) === undefined)).toEqual([])
    for (const resource of registry.all()) {
      if (small.bySlug(resource.slug)) continue
      expect((other.components as Json).schemas[schemaNames.read(resource)]).toBeUndefined()
      expect(Object.keys((other.components as Json).schemas['Hydra.Entrypoint'].properties)).not.toContain(
        lowerFirst(resource.meta.shortName),
      )
    }
  })
})

// ------------------------------------------------------------------ Hydra

describe('Hydra API documentation', () => {
  let hydra: Json
  let expanded: Json[]
  const docsUrl = `${BASE_URL}${PREFIX}/docs.jsonld`

  beforeAll(async () => {
    hydra = hydraDocumentation(registry, BASE_URL, { extensions: allExtensions(config) })
    expanded = (await jsonld.expand(hydra as never)) as Json[]
  })

  const classes = () => expanded[0]![`${HYDRA}supportedClass`] as Json[]
  const documentedProperties = () =>
    new Set(
      classes().flatMap((cls) =>
        ((cls[`${HYDRA}supportedProperty`] ?? []) as Json[]).map(
          (sp) => (sp[`${HYDRA}property`] as Json[])[0]!['@id'] as string,
        ),
      ),
    )

  it('is an ApiDocumentation with its @id, context and entrypoint', () => {
    expect(hydra['@id']).toBe(docsUrl)
    expect(hydra['@type']).toBe('hydra:ApiDocumentation')
    expect((hydra['@context'] as Json).hydra).toBe(HYDRA)
    expect(expanded).toHaveLength(1)
    expect(expanded[0]!['@type']).toEqual([`${HYDRA}ApiDocumentation`])
    expect(expanded[0]![`${HYDRA}entrypoint`]).toEqual([{ '@id': `${BASE_URL}${PREFIX}` }])
  })

  it('has a class per resource with its properties and operations', () => {
    for (const resource of registry.all()) {
      const { shortName } = resource.meta
      const cls = (hydra['hydra:supportedClass'] as Json[]).find((c) => c['@id'] === `#${shortName}`)!
      expect(cls).toBeDefined()
      expect(cls['@type']).toBe('hydra:Class')
      const props = (cls['hydra:supportedProperty'] as Json[]).map((sp) => sp['hydra:property']['@id'])
      for (const { json } of outputFields(resource)) expect(props).toContain(`#${shortName}/${json}`)
      expect(props).toContain(`#${shortName}/id`)
      const methods = (cls['hydra:supportedOperation'] as Json[]).map((op) => op['hydra:method'])
      expect(methods).toEqual(['GET', 'PATCH', 'DELETE'])
      for (const sp of cls['hydra:supportedProperty'] as Json[]) {
        expect(typeof sp['hydra:readable']).toBe('boolean')
        expect(typeof sp['hydra:writeable']).toBe('boolean')
      }
      for (const json of resource.meta.writeOnly ?? []) {
        const sp = (cls['hydra:supportedProperty'] as Json[]).find((s) => s['hydra:title'] === json)!
        expect(sp).toMatchObject({ 'hydra:readable': false, 'hydra:writeable': true })
      }
    }
    const entry = (hydra['hydra:supportedClass'] as Json[]).find((c) => c['@id'] === '#Entrypoint')!
    expect(entry['hydra:supportedProperty']).toHaveLength(registry.all().length)
    for (const sp of entry['hydra:supportedProperty'] as Json[]) {
      expect(sp['hydra:property']['hydra:supportedOperation'].map((op: Json) => op['hydra:method'])).toEqual([
        'GET',
        'POST',
      ])
    }
  })

  it('expands property and class IRIs into the API vocabulary', () => {
    const props = documentedProperties()
    const page = registry.all().find((r) => outputFields(r).length > 0)!
    const json = outputFields(page)[0]!.json
    expect(props).toContain(`${docsUrl}#${page.meta.shortName}/${json}`)
    expect(classes().map((c) => c['@id'])).toContain(`${docsUrl}#${page.meta.shortName}`)
  })

  it('documents every property and type the served JSON-LD contexts produce', async () => {
    const props = documentedProperties()
    const classIds = new Set(classes().map((c) => c['@id'] as string))
    const check = async (body: Json, label: string) => {
      const [node] = (await jsonld.expand(body as never, { base: `${BASE_URL}/` })) as Json[]
      expect(node).toBeDefined()
      for (const type of node!['@type'] ?? []) expect([label, type, classIds.has(type)]).toEqual([label, type, true])
      for (const key of Object.keys(node!)) {
        if (key.startsWith('@')) continue
        expect([label, key, props.has(key)]).toEqual([label, key, true])
      }
    }
    for (const resource of registry.all()) {
      const { '@context': _ignored, ...item } = sampleItem(resource, sampleDoc(resource))
      await check({ ...resourceContext(resource, registry, BASE_URL), ...item }, resource.slug)
    }
    await check(
      {
        ...entrypointContext(registry, BASE_URL),
        ...entrypoint(registry),
        '@context': entrypointContext(registry, BASE_URL)['@context'],
      },
      'Entrypoint',
    )
    await check(
      {
        ...errorContext('ConstraintViolation', registry, BASE_URL),
        '@type': 'ConstraintViolation',
        violations: [{ propertyPath: 'title', message: 'This value should not be blank.', code: null }],
      },
      'ConstraintViolation',
    )
  })
})

// ------------------------------------------------------------------ HTML

describe('Swagger UI page', () => {
  it('loads Swagger UI from local assets, with no inline script or style', () => {
    const html = docsHtml({ apiPrefix: PREFIX, title: 'My <API> & "docs"' })
    expect(html).toMatch(/^<!DOCTYPE html>/)
    expect(html).toContain('<title>My &lt;API&gt; &amp; &quot;docs&quot;</title>')
    expect(html).not.toMatch(/https?:\/\//)
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThanOrEqual(2)
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\ssrc="[^"]+"/)
      expect(body!.trim()).toBe('')
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i)
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((u) => u.startsWith(`${PREFIX}/docs/assets/`))
    expect(assets).toContain(`${PREFIX}/docs/assets/init.js`)
    const dir = swaggerAssetsDir()
    for (const asset of assets) {
      const file = asset.slice(`${PREFIX}/docs/assets/`.length)
      if (file === 'init.js') continue
      expect([file, existsSync(path.join(dir, file))]).toEqual([file, true])
    }
    expect(html).toContain(`data-url="${PREFIX}/docs.json"`)
  })

  it('points Swagger UI at the OpenAPI document from a standalone init script', () => {
    const script = docsInitScript(PREFIX)
    let options: Json | undefined
    let onLoad: (() => void) | undefined
    const SwaggerUIBundle = Object.assign((o: Json) => ((options = o), {}), {
      presets: { apis: {} },
      plugins: { DownloadUrl: {} },
    })
    const sandbox: Json = {
      SwaggerUIBundle,
      document: { getElementById: () => null },
    }
    sandbox.window = { addEventListener: (type: string, fn: () => void) => type === 'load' && (onLoad = fn) }
    vm.runInNewContext(script, sandbox)
    expect(onLoad).toBeDefined()
    onLoad!()
    expect(options).toMatchObject({ url: `${PREFIX}/docs.json`, dom_id: '#swagger-ui' })
    // A prefix with quotes or a closing tag stays a string.
    expect(() => new vm.Script(docsInitScript(`/a'"</script>\u2028`))).not.toThrow()
    expect(docsInitScript('/x</script>')).not.toContain('</script>')
  })

  it('finds the swagger-ui-dist folder', () => {
    const dir = swaggerAssetsDir()
    expect(path.isAbsolute(dir)).toBe(true)
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) expect(existsSync(path.join(dir, file))).toBe(true)
  })
})

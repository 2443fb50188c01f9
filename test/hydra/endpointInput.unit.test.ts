/**
 * An endpoint's `input` (hydra/input.ts): the pipeline's check answers the
 * refusal the schema declares (a 400, a violation at the declaring node's
 * path, the nearest enclosing refusal, a default violation), and the
 * handler gets a read-only body that throws when it reads a field the
 * schema does not declare. No database: runHandler is the pipeline's step.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { input } from '../../plugins/cwa/dist/hydra/input.js'
import { checkInput, readOnlyInput, UndeclaredInputRead } from '../../plugins/cwa/dist/hydra/inputCheck.js'
import { HttpError, ViolationError } from '../../plugins/cwa/dist/hydra/errors.js'
import type { HydraContext } from '../../plugins/cwa/dist/hydra/context.js'
import { type Endpoint, withInput } from '../../plugins/cwa/dist/hydra/endpoint.js'
import { runHandler } from '../../plugins/cwa/dist/hydra/pipeline/runHandler.js'
import { credentialsInput } from '../../plugins/cwa/dist/session/inputs.js'
import {
  addBlockInput,
  addGroupInput,
  appendInput,
  publishPageInput,
  removeInput,
  reorderInput,
  schedulePageInput,
} from '../../plugins/cwa/dist/features/admin/inputs.js'
import { publishInput } from '../../plugins/cwa/dist/features/publishable/inputs.js'
import { deleteOrphansInput } from '../../plugins/cwa/dist/features/orphans/inputs.js'
import { generateRouteInput } from '../../plugins/cwa/dist/features/routes/inputs.js'
import { ResourceRegistry } from '../../plugins/cwa/dist/core/registry.js'

/** What the checks read of a request's context: the registry (an IRI's type), from the site's config. */
let ctx: HydraContext
const UUID = '0b6f3c1e-7a52-4f2b-9d3c-2f1e8a9b7c6d'

beforeAll(async () => {
  const config = await (await import('../../payload.config')).default
  ctx = { registry: new ResourceRegistry(config, '/_api') } as HydraContext
})

function refusal(node: Parameters<typeof checkInput>[0], body: unknown): unknown {
  try {
    checkInput(node, body, ctx)
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, detail: error.message }
    if (error instanceof ViolationError) return { status: 422, violations: error.violations }
    throw error
  }
  return null
}

describe('the check of a body against its input', () => {
  it("answers the login's 400 for every bad body, and accepts good credentials", () => {
    const bad = { status: 400, detail: 'The body must hold "username" and "password" strings.' }
    for (const body of [
      undefined,
      null,
      [],
      'x',
      {},
      { username: 'a' },
      { username: '', password: 'b' },
      { username: 1, password: 'b' },
    ])
      expect(refusal(credentialsInput, body)).toEqual(bad)
    expect(refusal(credentialsInput, { username: 'a', password: 'b', extra: true })).toBeNull()
  })

  it('checks in the declared order, with the refusal of the failing node or the nearest around it', () => {
    const future = new Date(Date.now() + 86_400_000).toISOString()
    expect(refusal(schedulePageInput, 5)).toEqual({
      status: 422,
      violations: [{ propertyPath: '', message: 'A JSON object is required.', code: 'invalid' }],
    })
    // includeLayout is checked before publishedAt and iri (checkOrder), whatever else is wrong.
    expect(refusal(schedulePageInput, { includeLayout: 'yes', iri: 3 })).toEqual({
      status: 422,
      violations: [{ propertyPath: 'includeLayout', message: 'includeLayout must be true or false.', code: 'type' }],
    })
    expect(refusal(schedulePageInput, { publishedAt: 'not a date', iri: 'x' })).toMatchObject({
      violations: [{ propertyPath: 'publishedAt', code: 'datetime' }],
    })
    expect(refusal(schedulePageInput, { publishedAt: '2001-01-01T00:00:00Z', iri: 'x' })).toMatchObject({
      violations: [{ propertyPath: 'publishedAt', code: 'future' }],
    })
    expect(refusal(schedulePageInput, { publishedAt: future })).toMatchObject({
      violations: [{ propertyPath: 'iri', code: 'invalid_iri' }],
    })
    expect(refusal(schedulePageInput, { publishedAt: future, iri: `/_api/_/component_groups/${UUID}` })).toMatchObject({
      violations: [{ propertyPath: 'iri', code: 'invalid_iri' }],
    })
    expect(refusal(schedulePageInput, { publishedAt: future, iri: `/_api/_/pages/${UUID}` })).toBeNull()
  })

  it('checks the bounds of a list before its items when it says so, and names an item by its index', () => {
    const group = `/_api/_/component_groups/${UUID}`
    const tooMany = Array.from({ length: 1001 }, () => 5)
    expect(refusal(reorderInput, { componentGroup: group, positions: tooMany })).toEqual({
      status: 422,
      violations: [{ propertyPath: 'positions', message: 'At most 1000 positions.', code: 'too_many' }],
    })
    expect(
      refusal(reorderInput, { componentGroup: group, positions: [`/_api/_/component_positions/${UUID}`, group] }),
    ).toEqual({
      status: 422,
      violations: [
        {
          propertyPath: 'positions[1]',
          message: 'positions[1] must be the IRI of a component position.',
          code: 'invalid_iri',
        },
      ],
    })
  })

  it('tells the branches of a oneOf apart by their required properties', () => {
    const violations = (body: unknown) => (refusal(deleteOrphansInput, body) as { violations?: unknown })?.violations
    expect(violations('x')).toEqual([
      { propertyPath: '', message: 'Send iris (a list of IRIs) or all: true.', code: 'required' },
    ])
    expect(violations({ iris: null, all: true })).toEqual([
      { propertyPath: '', message: 'Send either iris or all: true, not both.', code: 'exclusive' },
    ])
    expect(violations({ all: false })).toEqual([
      { propertyPath: 'all', message: 'all must be true (or send iris).', code: 'invalid' },
    ])
    expect(violations({ iris: ['a', 1] })).toEqual([
      { propertyPath: 'iris', message: 'iris must be a list of IRI strings.', code: 'invalid' },
    ])
    expect(refusal(deleteOrphansInput, { all: true })).toBeNull()
  })

  it('counts a property sent as null as not sent when the oneOf says so', () => {
    const node = input.oneOf(
      [
        input.object({ a: input.string() }, { required: ['a'] }),
        input.object({ b: input.string() }, { required: ['b'] }),
      ],
      { absentWhenNull: true },
    )
    expect(refusal(node, { a: null, b: 'x' })).toBeNull()
    expect(refusal(node, { a: 'x', b: null })).toBeNull()
    expect(refusal(node, { a: null })).toMatchObject({ violations: [{ propertyPath: '', code: 'required' }] })
    expect(refusal(node, { a: 'x', b: 'y' })).toMatchObject({ violations: [{ propertyPath: '', code: 'oneOf' }] })
    // Without it, null is sent: both branches match.
    const strict = { ...node, absentWhenNull: false } as typeof node
    expect(refusal(strict, { a: null, b: 'x' })).toMatchObject({ violations: [{ code: 'oneOf' }] })
  })

  it('answers a default violation at the path when nothing declares a refusal', () => {
    const node = input.object({ list: input.array(input.integer(), { maxItems: 2 }) }, { required: ['list'] })
    expect(refusal(node, {})).toEqual({
      status: 422,
      violations: [{ propertyPath: 'list', message: 'This value should not be blank.', code: 'required' }],
    })
    expect(refusal(node, { list: [1, 'a'] })).toEqual({
      status: 422,
      violations: [{ propertyPath: 'list[1]', message: 'This value should be of type int.', code: 'type' }],
    })
    expect(refusal(node, { list: [1, 2, 3] })).toMatchObject({
      violations: [{ propertyPath: 'list', code: 'maxItems' }],
    })
  })
})

describe('the answers the hand-written checks gave, each endpoint its own', () => {
  const group = `/_api/_/component_groups/${UUID}`
  const position = `/_api/_/component_positions/${UUID}`
  const violation = (propertyPath: string, message: string, code: string) => ({
    status: 422,
    violations: [{ propertyPath, message, code }],
  })
  const cases: Array<[string, Parameters<typeof checkInput>[0], unknown, unknown]> = [
    [
      'publish: none',
      publishInput([]),
      {},
      violation('iris', 'A non-empty list of draft IRIs is required.', 'required'),
    ],
    [
      'publish: not a body',
      publishInput([]),
      undefined,
      violation('iris', 'A non-empty list of draft IRIs is required.', 'required'),
    ],
    [
      'publish: empty',
      publishInput([]),
      { iris: [] },
      violation('iris', 'A non-empty list of draft IRIs is required.', 'required'),
    ],
    [
      'publish: a number',
      publishInput([]),
      { iris: ['a', 2] },
      violation('iris', 'A non-empty list of draft IRIs is required.', 'required'),
    ],
    [
      'publish: 201',
      publishInput([]),
      { iris: Array.from({ length: 201 }, () => 'a') },
      { status: 400, detail: 'At most 200 IRIs at once.' },
    ],
    ['publish: 200', publishInput([]), { iris: Array.from({ length: 200 }, () => 'a') }, null],
    ['remove: an array', removeInput, [], violation('', 'A JSON object is required.', 'invalid')],
    [
      'remove: none',
      removeInput,
      {},
      violation('position', 'position must be the IRI of a component position.', 'invalid_iri'),
    ],
    [
      'remove: a group',
      removeInput,
      { position: group },
      violation('position', 'position must be the IRI of a component position.', 'invalid_iri'),
    ],
    ['remove', removeInput, { position }, null],
    [
      'append: group first',
      appendInput,
      { componentGroup: position, component: 3 },
      violation('componentGroup', 'componentGroup must be the IRI of a component group.', 'invalid_iri'),
    ],
    [
      'append: component',
      appendInput,
      { componentGroup: group, component: position },
      violation('component', 'component must be the IRI of a component.', 'invalid_iri'),
    ],
    [
      'groups: owner',
      addGroupInput,
      { owner: group, location: 'top' },
      violation('owner', 'owner must be the IRI of a page or a layout.', 'invalid_iri'),
    ],
    [
      'groups: location',
      addGroupInput,
      { owner: `/_api/_/pages/${UUID}`, location: '1top' },
      violation(
        'location',
        'location must be a name of letters, digits, _ or - (at most 64), starting with a letter.',
        'invalid',
      ),
    ],
    ['groups', addGroupInput, { owner: `/_api/_/layouts/${UUID}`, location: 'top' }, null],
    ['blocks: a list', addBlockInput, [], violation('', 'A JSON object is required.', 'invalid')],
    ['blocks: no body', addBlockInput, undefined, violation('', 'A JSON object is required.', 'invalid')],
    [
      'blocks: no type',
      addBlockInput,
      { componentGroup: group },
      violation('type', 'type must be the collection IRI of a component type.', 'invalid_iri'),
    ],
    [
      'blocks: an item as type',
      addBlockInput,
      { componentGroup: group, type: `/_api/component/titles/${UUID}` },
      violation('type', 'type must be the collection IRI of a component type.', 'invalid_iri'),
    ],
    [
      'blocks: pages as type',
      addBlockInput,
      { componentGroup: group, type: '/_api/_/pages', data: 3 },
      violation('type', 'type must be the collection IRI of a component type.', 'invalid_iri'),
    ],
    [
      'blocks: data null',
      addBlockInput,
      { componentGroup: group, type: '/_api/component/titles', data: null },
      violation('data', 'data must be an object of the block’s fields.', 'type'),
    ],
    [
      'blocks: data a list',
      addBlockInput,
      { type: '/_api/component/titles', data: [] },
      violation('data', 'data must be an object of the block’s fields.', 'type'),
    ],
    // The fields (the type's) and then componentGroup are the handler's: a body failing both answers the field.
    ['blocks: fields and group', addBlockInput, { type: '/_api/component/titles', data: { title: 4 } }, null],
    ['blocks: group a number', addBlockInput, { componentGroup: 5, type: '/_api/component/titles' }, null],
    ['blocks', addBlockInput, { componentGroup: group, type: '/_api/component/titles', data: { title: 'x' } }, null],
    [
      'reorder: empty',
      reorderInput,
      { componentGroup: group, positions: [] },
      violation('positions', 'positions must be a non-empty list of position IRIs.', 'required'),
    ],
    [
      'publish page: includeLayout null',
      publishPageInput,
      { iri: 3, includeLayout: null },
      violation('includeLayout', 'includeLayout must be true or false.', 'type'),
    ],
    [
      'generate route: an array',
      generateRouteInput,
      [1],
      violation('', 'Send {"page": IRI} or {"pageData": IRI}.', 'type'),
    ],
    [
      'generate route: no body',
      generateRouteInput,
      undefined,
      violation('', 'Send {"page": IRI} or {"pageData": IRI}.', 'type'),
    ],
    [
      'generate route: neither',
      generateRouteInput,
      {},
      violation('page', 'Send exactly one of page and pageData.', 'one_target'),
    ],
    [
      'generate route: only nulls',
      generateRouteInput,
      { page: null, pageData: null },
      violation('page', 'Send exactly one of page and pageData.', 'one_target'),
    ],
    [
      'generate route: both (the first not even a string)',
      generateRouteInput,
      { page: 12, pageData: 'x' },
      violation('pageData', 'Send exactly one of page and pageData.', 'one_target'),
    ],
    [
      'generate route: a number',
      generateRouteInput,
      { page: 12 },
      violation('page', 'Expected an IRI (string).', 'type'),
    ],
    [
      'generate route: pageData a list',
      generateRouteInput,
      { page: null, pageData: ['x'] },
      violation('pageData', 'Expected an IRI (string).', 'type'),
    ],
    ['generate route: page, pageData null', generateRouteInput, { page: 'x', pageData: null }, null],
    ['generate route: pageData, page null', generateRouteInput, { page: null, pageData: 'x', other: 1 }, null],
    [
      'publish page: iri',
      publishPageInput,
      { iri: group },
      violation('iri', 'iri must be the IRI of a page, a layout or page data.', 'invalid_iri'),
    ],
  ]
  it.each(cases)('%s', (_name, node, body, expected) => {
    expect(refusal(node, body)).toEqual(expected)
  })
})

describe('the body a handler gets', () => {
  const node = input.object({ name: input.string(), tags: input.array(input.object({ label: input.string() })) })

  it('reads declared fields, lists and spreads what was sent, and is read-only', () => {
    const body = readOnlyInput(node, { name: 'a', tags: [{ label: 'x' }] })
    expect(body.name).toBe('a')
    expect(body.tags?.map((t) => t.label)).toEqual(['x'])
    // (jest's matchers probe objects for keys of their own, so the nested values are compared as JSON.)
    expect(Object.keys({ ...body })).toEqual(['name', 'tags'])
    expect(JSON.stringify(body)).toBe('{"name":"a","tags":[{"label":"x"}]}')
    expect(() => {
      ;(body as { name: string }).name = 'b'
    }).toThrow(TypeError)
  })

  it('throws a programming error when a handler reads a field its input does not declare', async () => {
    const reader: Endpoint = withInput({
      method: 'POST',
      path: '/reads-too-much',
      input: node,
      handler: async (_ctx, { body }) => {
        // A handler reaching past its schema: the type says no (an undeclared key), and at run time it throws.
        const undeclared = (body as Record<string, unknown>).secret
        return { status: 200, output: { type: 'X', data: { undeclared } } }
      },
      docs: { undocumented: 'test' },
    })
    const request = {
      method: 'POST',
      params: {},
      stream: null,
      url: new URL('http://x/'),
      responseHeaders: new Headers(),
    }
    await expect(runHandler(ctx, reader, { ...request, body: { name: 'a', secret: 's' } })).rejects.toThrow(
      UndeclaredInputRead,
    )
    // A nested undeclared read names its path.
    const nested = readOnlyInput(node, { tags: [{ label: 'x', other: 1 }] })
    expect(() => (nested.tags![0] as Record<string, unknown>).other).toThrow('"tags[0].other"')
  })
})

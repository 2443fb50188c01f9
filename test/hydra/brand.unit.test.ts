/**
 * Values that cross copies of the package (a Next.js app's bundled copy and the server's, sharing one Payload):
 * the pipeline's classes recognise each other's instances by a registered symbol, not by the class object
 * (plugins/cwa/core/utils/brand.ts). A value made by "another copy" is built here as that copy makes it: an object
 * of another class carrying the registered brand.
 */
import { describe, expect, it } from '@jest/globals'
import { EmbeddedCollection, EmbeddedItem } from '../../plugins/cwa/dist/hydra/embedded.js'
import { classifyError, HttpError, ViolationError } from '../../plugins/cwa/dist/hydra/errors.js'
import { PreconditionFailed } from '../../plugins/cwa/dist/hydra/version.js'

const fromAnotherCopy = <T extends object>(value: T, name: string): T =>
  Object.defineProperty(value, Symbol.for('payload-cwa.brand'), { value: name })

describe('values of another copy of the package', () => {
  it('are instances of the pipeline’s classes, whichever copy made them', () => {
    const collection = fromAnotherCopy({ view: undefined, normalized: async () => ({}) }, 'EmbeddedCollection')
    expect(collection instanceof EmbeddedCollection).toBe(true)
    expect(collection instanceof EmbeddedItem).toBe(false)
    expect(fromAnotherCopy({ resource: {}, doc: {} }, 'EmbeddedItem') instanceof EmbeddedItem).toBe(true)
    // Plain objects (a JSON-LD answer being walked) are none of them.
    expect({ view: {}, shared: {} } instanceof EmbeddedCollection).toBe(false)
    expect((null as unknown as object) instanceof EmbeddedItem).toBe(false)
  })

  it('keep their status when the other copy threw them', () => {
    const thrown = fromAnotherCopy(Object.assign(new Error('Gone'), { status: 404, headers: {} }), 'HttpError')
    expect(thrown instanceof HttpError).toBe(true)
    expect((classifyError(thrown, false, 'GET') as HttpError).status).toBe(404)
    const refused = fromAnotherCopy(
      Object.assign(new Error('title: required'), {
        status: 422,
        violations: [{ propertyPath: 'title', message: 'required', code: null }],
      }),
      'ViolationError',
    )
    expect(refused instanceof ViolationError).toBe(true)
  })

  it('leave subclasses to the prototype: an HttpError is no PreconditionFailed, a PreconditionFailed is an HttpError', () => {
    const precondition = new PreconditionFailed('Changed since', {
      changed: 'record',
      id: 'x',
      changedAt: null,
      currentVersion: null,
    } as never)
    expect(precondition instanceof HttpError).toBe(true)
    expect(precondition instanceof PreconditionFailed).toBe(true)
    expect(new HttpError(404, 'Not Found') instanceof PreconditionFailed).toBe(false)
  })
})

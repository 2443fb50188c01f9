import type { Payload } from 'payload'
import type { TestServer } from './server'

/**
 * Fixture writers shared by the test files. A fixture that cannot be made
 * throws (a broken setup, not a failed case), naming the request.
 */

/** POSTs through the JSON-LD API (as `token`) and returns the created resource; anything but 201 throws. */
export async function postFixture(
  server: TestServer,
  path: string,
  body: Record<string, unknown>,
  token?: string,
): Promise<Record<string, any>> {
  const response = await server.post(path, body, { token })
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${response.text}`)
  return response.body
}

/** Creates a record through the Local API (trusted, no user) and returns its id. */
export async function createRecord(
  payload: Payload,
  collection: string,
  data: Record<string, unknown>,
): Promise<string> {
  const doc = await payload.create({ collection: collection as never, data: data as never, depth: 0 })
  return String((doc as { id: string | number }).id)
}

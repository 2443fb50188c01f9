/**
 * Handlers return data, the pipeline formats (issue 38): a node's data may
 * hold a record (`embedItem`), which the pipeline normalizes where it stands
 * (as a collection member: no `@context`), and the IRIs the pipeline met
 * while formatting the body are the answer's cache tags (`xkey`), the
 * embedded record's included. An item answer's `with` properties join the
 * normalized item (`_metadata` entries merged into its own). Shown with
 * endpoints an app adds as a plugin author does (custom.cwa.extensions).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { embedItem, type HydraContext, type HydraExtension } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

const undocumented = { undocumented: 'a test endpoint (embeddedRecords.test.ts)' }

/** The first user, as the store reads it (the record a handler hands to the pipeline). */
async function firstUser(ctx: HydraContext) {
  const found = await ctx.payload.find({ collection: 'users', depth: 0, limit: 1, sort: 'createdAt' })
  return found.docs[0] as Record<string, unknown>
}

const probes: HydraExtension = {
  name: 'embeddedProbes',
  endpoints: (registry) => [
    {
      method: 'GET',
      path: '/_/probe/embedded',
      security: 'public',
      handler: async (ctx) => ({
        status: 200,
        output: { type: 'ProbeList', data: { member: [embedItem(registry.bySlug('users')!, await firstUser(ctx))] } },
      }),
      docs: undocumented,
    },
    {
      method: 'GET',
      path: '/_/probe/item_with',
      security: 'public',
      handler: async (ctx) => ({
        status: 200,
        item: {
          resource: registry.bySlug('users')!,
          doc: await firstUser(ctx),
          with: { _metadata: { probe: true }, extra: 'after' },
        },
      }),
      docs: undocumented,
    },
  ],
}

let site: MinimalSite
let userIri: string

beforeAll(async () => {
  site = await startMinimalSite({ extensions: [probes] })
  await site.tokenFor('ROLE_USER')
  const found = await site.payload.find({ collection: 'users', depth: 0, limit: 1, sort: 'createdAt' })
  userIri = `${site.prefix}/users/${String(found.docs[0]!.id)}`
})
afterAll(async () => {
  await site?.close()
})

describe('a record embedded in a node', () => {
  it('is normalized by the pipeline where it stands (no @context), and tags the answer', async () => {
    const answer = await site.get(`${site.prefix}/_/probe/embedded`)
    expect(answer.status).toBe(200)
    const body = answer.body as { '@type': string; member: Array<Record<string, unknown>> }
    expect(body['@type']).toBe('ProbeList')
    expect(body.member).toHaveLength(1)
    expect(body.member[0]).toMatchObject({ '@id': userIri, '@type': 'User', _metadata: { persisted: true } })
    expect(body.member[0]).not.toHaveProperty('@context')
    expect(answer.headers.get('xkey')?.split(' ')).toContain(userIri)
  })
})

describe("an item answer's `with`", () => {
  it('writes its properties after the item, merging an object into the one the item holds', async () => {
    const answer = await site.get(`${site.prefix}/_/probe/item_with`)
    expect(answer.status).toBe(200)
    const body = answer.body as Record<string, unknown>
    expect(body).toMatchObject({ '@context': `${site.prefix}/contexts/User`, '@id': userIri })
    expect(body._metadata).toMatchObject({ persisted: true, probe: true })
    expect(Object.keys(body).at(-1)).toBe('extra')
    expect(answer.headers.get('xkey')?.split(' ')[0]).toBe(userIri)
  })
})

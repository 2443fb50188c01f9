import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { defineFormType } from 'payload-cwa'
import { formTypeHash } from '../../plugins/cwa/dist/features/forms/index.js'
import { type CommandRun, runPayloadCommand, UNREACHABLE_DATABASE_URL } from '../support/command'
import { startTestServer, type TestServer } from '../support/server'

/**
 * `npx payload cwa:form-cache-purge` (contract: "Operator console
 * commands"; its Node meaning in plugins/cwa/features/forms/cachePurge.ts):
 * a Form whose form type declaration changed since it was written gets a
 * new modified date. Run as a real child process against the test database.
 */

let server: TestServer
let admin: string

function purge(...args: string[]): Promise<CommandRun> {
  return runPayloadCommand('cwa:form-cache-purge', args, { DATABASE_URL: server.databaseUrl })
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

describe('formTypeHash', () => {
  const base = () => ({ className: 'HashType', formName: 'hash_form', fields: [{ name: 'a', type: 'text' as const }] })
  it('is stable for the same declaration and changes with any field, rule or child form', () => {
    expect(formTypeHash(defineFormType(base()))).toBe(formTypeHash(defineFormType(base())))
    expect(formTypeHash(defineFormType({ ...base(), fields: [{ name: 'a', type: 'text', required: true }] }))).not.toBe(
      formTypeHash(defineFormType(base())),
    )
    const child = (max: number) =>
      defineFormType({
        ...base(),
        fields: [
          {
            name: 'c',
            type: 'form',
            form: defineFormType({ className: 'C', formName: 'c', fields: [{ name: 'n', type: 'number', max }] }),
          },
        ],
      })
    expect(formTypeHash(child(1))).not.toBe(formTypeHash(child(2)))
  })
})

describe('cwa:form-cache-purge', () => {
  it("stores the type's hash on a new Form (never served), and touches nothing while types are unchanged", async () => {
    const created = await server.post('/_api/component/forms', { formType: 'ExampleFormType' }, { token: admin })
    expect(created.status).toBe(201)
    expect(created.body).not.toHaveProperty('formTypeHash')
    const [row] = await server.sql('SELECT form_type_hash, updated_at FROM _acb_forms WHERE id = $1', [created.body.id])
    expect(row.form_type_hash).toMatch(/^[0-9a-f]{64}$/)
    const run = await purge()
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/given a new modified date \(form type changed\): 0/)
    const [after] = await server.sql('SELECT updated_at FROM _acb_forms WHERE id = $1', [created.body.id])
    expect(after.updated_at).toEqual(row.updated_at)
  })

  it('gives a Form whose type changed a new modified date and the new hash; counts types no longer declared', async () => {
    const changed = (await server.post('/_api/component/forms', { formType: 'ExampleFormType' }, { token: admin })).body
    const gone = (await server.post('/_api/component/forms', { formType: 'ExampleFormType' }, { token: admin })).body
    // As if the type's declaration had changed since these Forms were written, and another type was removed.
    await server.sql(
      `UPDATE _acb_forms SET form_type_hash = 'before', updated_at = now() - interval '1 day' WHERE id = $1`,
      [changed.id],
    )
    await server.sql(`UPDATE _acb_forms SET form_type = 'RemovedFormType' WHERE id = $1`, [gone.id])
    const before = (await server.get(changed['@id'])).body.modifiedAt
    const run = await purge()
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/given a new modified date \(form type changed\): 1/)
    expect(run.stdout).toMatch(/no longer declared \(left alone\): 1/)
    const [row] = await server.sql('SELECT form_type_hash FROM _acb_forms WHERE id = $1', [changed.id])
    expect(row.form_type_hash).toMatch(/^[0-9a-f]{64}$/)
    const after = (await server.get(changed['@id'])).body.modifiedAt
    expect(new Date(after).getTime()).toBeGreaterThan(new Date(before).getTime())
  })

  it('refuses arguments before reaching the database (exit 1)', async () => {
    const run = await runPayloadCommand('cwa:form-cache-purge', ['extra'], { DATABASE_URL: UNREACHABLE_DATABASE_URL })
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(
      'cwa:form-cache-purge takes no argument (got extra).\nUsage: npx payload cwa:form-cache-purge',
    )
  })
})

import { beforeAll, describe, expect, it } from '@jest/globals'
import { linksIn } from '../../support/smtp'
import { useMailSite } from '../../support/mail'

/**
 * Email changes with `user.emailVerification.verifyOnChange` off (the
 * default): newEmailAddress is still a change to confirm by email, while
 * the account holder may set emailAddress directly, which then leaves the
 * account unverified (nobody proved the new address works).
 */

let root: string

const stored = async (id: string) =>
  (await server.sql('SELECT email, new_email_address, email_address_verified FROM _acb_users WHERE id = $1', [id]))[0]
const paths = (body: { violations?: Array<{ propertyPath: string }> }) =>
  (body.violations ?? []).map((v) => v.propertyPath)

const { server, smtp } = useMailSite({ user: { emailLinks: { defaultOrigin: 'https://front.example' } } })
beforeAll(async () => {
  await server.createUser('root', ['ROLE_SUPER_ADMIN'])
  await server.createUser('owner')
  root = await server.login('root')
})

describe('without verifyOnChange', () => {
  it('keeps newEmailAddress pending until its emailed link is opened', async () => {
    const id = await server.createUser('gina')
    const token = await server.login('gina')
    const response = await server.patch(`/_api/users/${id}`, { newEmailAddress: ' Gina.New@Example.com ' }, { token })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      emailAddress: 'gina@example.com',
      newEmailAddress: 'gina.new@example.com',
      emailAddressVerified: true,
    })
    const mail = await smtp.waitFor((m) => m.to.includes('gina.new@example.com'))
    const [link] = linksIn(mail)
    const path = new URL(link!).pathname.replace('/confirm-new-email/', '/_api/confirm-email/')
    expect((await server.get(path)).status).toBe(200)
    expect(await stored(id)).toEqual({
      email: 'gina.new@example.com',
      new_email_address: null,
      email_address_verified: true,
    })
  })

  it('lets the account holder set emailAddress directly, unverified', async () => {
    const id = await server.createUser('hank')
    const token = await server.login('hank')
    const response = await server.patch(`/_api/users/${id}`, { emailAddress: ' Hank2@Example.com ' }, { token })
    expect(response.status).toBe(200)
    expect(await stored(id)).toEqual({
      email: 'hank2@example.com',
      new_email_address: null,
      email_address_verified: false,
    })
    // An empty pending address is no pending address.
    expect(
      (await server.patch(`/_api/users/${id}`, { newEmailAddress: '' }, { token })).body.newEmailAddress,
    ).toBeNull()
    expect((await stored(id)).new_email_address).toBeNull()
  })

  it("refuses another account's address (account takeover by claiming its email): 422 on the property sent", async () => {
    const id = await server.createUser('ivan')
    const token = await server.login('ivan')
    const requested = await server.patch(`/_api/users/${id}`, { newEmailAddress: 'OWNER@example.com' }, { token })
    expect(requested.status).toBe(422)
    expect(paths(requested.body)).toEqual(['newEmailAddress'])
    const direct = await server.patch(`/_api/users/${id}`, { emailAddress: 'owner@example.com' }, { token })
    expect(direct.status).toBe(422)
    expect(paths(direct.body)).toEqual(['emailAddress'])
    expect(await stored(id)).toEqual({
      email: 'ivan@example.com',
      new_email_address: null,
      email_address_verified: true,
    })
  })

  it('refuses the current address as a new one (422) and an invalid address (422)', async () => {
    const id = await server.createUser('jane')
    const token = await server.login('jane')
    const same = await server.patch(`/_api/users/${id}`, { newEmailAddress: 'jane@example.com' }, { token })
    expect(same.status).toBe(422)
    expect(paths(same.body)).toEqual(['newEmailAddress'])
    const invalid = await server.patch(`/_api/users/${id}`, { newEmailAddress: 'not an address' }, { token })
    expect(invalid.status).toBe(422)
    expect(paths(invalid.body)).toEqual(['newEmailAddress'])
    expect(await stored(id)).toEqual({
      email: 'jane@example.com',
      new_email_address: null,
      email_address_verified: true,
    })
  })

  it('lets a super admin change an address and vouch for it in the same write', async () => {
    const id = await server.createUser('kate')
    const vouched = await server.patch(
      `/_api/users/${id}`,
      { emailAddress: 'kate2@example.com', emailAddressVerified: true },
      { token: root },
    )
    expect(vouched.status).toBe(200)
    expect(await stored(id)).toEqual({
      email: 'kate2@example.com',
      new_email_address: null,
      email_address_verified: true,
    })
    const plain = await server.patch(`/_api/users/${id}`, { emailAddress: 'kate3@example.com' }, { token: root })
    expect(plain.status).toBe(200)
    expect((await stored(id)).email_address_verified).toBe(false)
  })
})

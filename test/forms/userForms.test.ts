/**
 * The built-in user forms register (user_register), change_password
 * (password_update) and new_email_address, submitted through real HTTP on
 * a site with open registration: each goes through the users resource's
 * own rules, and passwords are checked by logging in for real.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'
import { errorsByField } from './formErrors'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ options: { users: { allowRegistration: true } } })
})

afterAll(async () => {
  await server?.close()
})

const submit = (id: string, body: unknown, token?: string) =>
  server.post(`/_api/component/forms/${id}/submit`, body, {
    contentType: 'application/json',
    ...(token ? { token } : {}),
  })

const loginStatus = async (username: string, password: string) =>
  (await server.request('POST', '/_api/login', { username, password }, { contentType: 'application/json' })).status

describe('register (user_register)', () => {
  const body = (username: string, email: string, first = 'register-pass-1', second = first) => ({
    user_register: { username, emailAddress: email, plainPassword: { first, second } },
  })

  it('creates a user through the users resource: 201 with the new user, who can log in', async () => {
    const response = await submit('register', body('newcomer', 'newcomer@example.com'))
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({ '@type': 'User', username: 'newcomer', emailAddress: 'newcomer@example.com' })
    expect(response.text).not.toContain('register-pass-1')
    expect(await loginStatus('newcomer', 'register-pass-1')).toBe(204)
    const roles = await server.sql(
      'SELECT r.value FROM _acb_users_roles r JOIN _acb_users u ON u.id = r.parent_id WHERE u.username = $1',
      ['newcomer'],
    )
    expect(roles.map((r) => r.value)).toEqual(['ROLE_USER'])
  })

  it('registration never grants roles (security: privilege escalation through an extra form field)', async () => {
    const response = await submit('register', {
      user_register: { ...body('climber', 'climber@example.com').user_register, roles: ['ROLE_SUPER_ADMIN'] },
    })
    expect(response.status).toBe(422)
    expect(response.body.formView.vars.errors).toEqual(['This form should not contain extra fields.'])
    expect(await server.sql('SELECT id FROM _acb_users WHERE username = $1', ['climber'])).toEqual([])
  })

  it('422 with per-field errors: mismatch, blanks, bad email, taken username and email; nothing created', async () => {
    await server.createUser('taken')
    const count = async () => (await server.sql('SELECT count(*)::int AS n FROM _acb_users'))[0].n
    const before = await count()
    const mismatch = await submit('register', body('someone', 'someone@example.com', 'aaaa-1111', 'bbbb-2222'))
    expect([mismatch.status, errorsByField(mismatch)]).toEqual([
      422,
      { plainPassword: ['The password fields must match.'] },
    ])
    const blank = await submit('register', { user_register: {} })
    expect(blank.status).toBe(422)
    expect(Object.keys(errorsByField(blank))).toEqual(['username', 'emailAddress', 'plainPassword'])
    const badEmail = await submit('register', body('someone', 'not-an-email'))
    expect(errorsByField(badEmail)).toEqual({ emailAddress: ['This value is not a valid email address.'] })
    const takenName = await submit('register', body('taken', 'free@example.com'))
    expect([takenName.status, Object.keys(errorsByField(takenName))]).toEqual([422, ['username']])
    const takenEmail = await submit('register', body('free', 'taken@example.com'))
    expect([takenEmail.status, Object.keys(errorsByField(takenEmail))]).toEqual([422, ['emailAddress']])
    expect(await count()).toBe(before)
  })

  it("the users resource's password rule applies (too short)", async () => {
    const response = await submit('register', body('shorty', 'shorty@example.com', 'ab'))
    expect(response.status).toBe(422)
    expect(Object.keys(errorsByField(response))).toEqual(['plainPassword'])
  })
})

describe('change_password (password_update)', () => {
  const body = (oldPassword: string, first: string, second = first) => ({
    password_update: { oldPassword, plainPassword: { first, second } },
  })

  it('anonymous callers are refused: 401', async () => {
    const response = await submit('change_password', body(PASSWORD, 'whatever-123'))
    expect(response.status).toBe(401)
  })

  it('checks the current password on submit: a wrong one is a 422 on oldPassword and changes nothing', async () => {
    await server.createUser('changer')
    const token = await server.login('changer')
    const wrong = await submit('change_password', body('not my password', 'brand-new-pass'), token)
    expect(wrong.status).toBe(422)
    expect(errorsByField(wrong)).toEqual({ oldPassword: ["This value should be the user's current password."] })
    expect(wrong.text).not.toContain('brand-new-pass')
    expect(await loginStatus('changer', PASSWORD)).toBe(204)
  })

  it('mismatch: 422; valid: 201, the new password logs in and the old one no longer does', async () => {
    await server.createUser('changer2')
    const token = await server.login('changer2')
    const mismatch = await submit('change_password', body(PASSWORD, 'brand-new-pass', 'other-new-pass'), token)
    expect([mismatch.status, errorsByField(mismatch)]).toEqual([
      422,
      { plainPassword: ['The password fields must match.'] },
    ])
    const ok = await submit('change_password', body(PASSWORD, 'brand-new-pass'), token)
    expect(ok.status).toBe(201)
    expect(ok.body['@id']).toBe('/_api/component/forms/change_password')
    expect(ok.text).not.toContain(PASSWORD)
    expect(ok.text).not.toContain('brand-new-pass')
    expect(await loginStatus('changer2', 'brand-new-pass')).toBe(204)
    expect(await loginStatus('changer2', PASSWORD)).toBe(401)
  })

  it('PATCH checks only that the current password is filled in (password oracle without attempt counting): the wrong one is not revealed, nothing counted or changed', async () => {
    await server.createUser('changer3')
    const token = await server.login('changer3')
    const patch = (oldPassword: string) =>
      server.patch('/_api/component/forms/change_password/submit', { password_update: { oldPassword } }, { token })
    const right = await patch(PASSWORD)
    const wrong = await patch('not my password')
    expect([right.status, errorsByField(right)]).toEqual([200, {}])
    expect([wrong.status, errorsByField(wrong)]).toEqual([200, {}])
    expect(wrong.headers.get('cache-control')).toBe('private, no-store')
    expect(
      (
        await server.sql(
          'SELECT coalesce(login_attempts, 0)::int AS login_attempts FROM _acb_users WHERE username = $1',
          ['changer3'],
        )
      )[0].login_attempts,
    ).toBe(0)
    expect(await loginStatus('changer3', PASSWORD)).toBe(204)
  })

  it('password guessing through the form with a stolen session: failures count like failed logins, 10 lock the account', async () => {
    await server.createUser('guessed')
    const token = await server.login('guessed')
    for (let i = 0; i < 10; i++) {
      const guess = await submit('change_password', body(`guess number ${i}`, 'brand-new-pass'), token)
      expect(guess.status).toBe(422)
    }
    const [row] = await server.sql(
      'SELECT login_attempts::int AS login_attempts, lock_until FROM _acb_users WHERE username = $1',
      ['guessed'],
    )
    expect(row.login_attempts).toBeGreaterThanOrEqual(10)
    expect(new Date(row.lock_until).getTime()).toBeGreaterThan(Date.now())
    // Locked: even the right password is refused, on the form and at login from the guessing client
    // (its failures count for the login throttle too: 429; see test/users/loginHardening.test.ts for other addresses).
    const right = await submit('change_password', body(PASSWORD, 'brand-new-pass'), token)
    expect([right.status, errorsByField(right)]).toEqual([
      422,
      { oldPassword: ['Too many failed attempts: this account is locked for a while.'] },
    ])
    expect(await loginStatus('guessed', PASSWORD)).toBe(429)
    expect(await loginStatus('guessed', 'brand-new-pass')).toBe(429)
  })

  it('the right current password ends the count of failed attempts', async () => {
    await server.createUser('fumbler')
    const token = await server.login('fumbler')
    expect((await submit('change_password', body('typo', 'brand-new-pass'), token)).status).toBe(422)
    expect(
      (
        await server.sql(
          'SELECT coalesce(login_attempts, 0)::int AS login_attempts FROM _acb_users WHERE username = $1',
          ['fumbler'],
        )
      )[0].login_attempts,
    ).toBe(1)
    expect((await submit('change_password', body(PASSWORD, 'brand-new-pass'), token)).status).toBe(201)
    expect(
      (
        await server.sql(
          'SELECT coalesce(login_attempts, 0)::int AS login_attempts FROM _acb_users WHERE username = $1',
          ['fumbler'],
        )
      )[0].login_attempts,
    ).toBe(0)
  })
})

describe('new_email_address', () => {
  const body = (value: string) => ({ new_email_address: { newEmailAddress: value } })
  const pending = async (username: string) =>
    (await server.sql('SELECT new_email_address FROM _acb_users WHERE username = $1', [username]))[0].new_email_address

  it('anonymous callers are refused: 401', async () => {
    expect((await submit('new_email_address', body('x@example.com'))).status).toBe(401)
  })

  it('an invalid address: 422 on the field, nothing pending', async () => {
    await server.createUser('mover0')
    const token = await server.login('mover0')
    const response = await submit('new_email_address', body('nope'), token)
    expect([response.status, errorsByField(response)]).toEqual([
      422,
      { newEmailAddress: ['This value is not a valid email address.'] },
    ])
    expect(await pending('mover0')).toBeNull()
  })

  it('requests the change for the signed-in user; an empty submit cancels it', async () => {
    await server.createUser('mover')
    const token = await server.login('mover')
    const requested = await submit('new_email_address', body('moved@example.com'), token)
    expect(requested.status).toBe(201)
    expect(await pending('mover')).toBe('moved@example.com')
    // The pending address pre-fills the form for its owner.
    const view = (await server.get('/_api/component/forms/new_email_address', { token })).body.formView
    expect(view.children[0].vars.value).toBe('moved@example.com')
    const cancelled = await submit('new_email_address', body(''), token)
    expect(cancelled.status).toBe(201)
    expect(await pending('mover')).toBeNull()
  })
})

import { input } from '../hydra/input.js'

/** The body of POST /login; anything else (a field missing, empty or not a string) is a 400. */
export const credentialsInput = input.object(
  {
    username: input.string({ minLength: 1 }),
    password: input.string({ minLength: 1, format: 'password', writeOnly: true }),
  },
  {
    name: 'Session.Credentials',
    required: ['username', 'password'],
    refuse: { badRequest: 'The body must hold "username" and "password" strings.' },
  },
)

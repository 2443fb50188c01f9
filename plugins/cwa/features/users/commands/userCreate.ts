import { createInterface } from 'node:readline/promises'
import { Writable } from 'node:stream'
import { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from '../../../core/options.js'
import { commandArgs, runCommand, type CommandConfig } from '../../../core/commands/runCommand.js'

export const COMMAND = 'cwa:user:create'
const USAGE =
  'Usage: npx payload cwa:user:create [username] [email] [password] [--admin|--super-admin] [--inactive] [--overwrite]'

export interface UserCreateInput {
  username?: string
  email?: string
  password?: string
  role: string
  enabled: boolean
  overwrite: boolean
}

/** Parses the command line of cwa:user:create (arguments after the command name). */
export function parseUserCreateArgs(argv: string[]): UserCreateInput {
  const positional: string[] = []
  const flags = new Set<string>()
  for (const arg of argv) {
    if (arg.startsWith('--')) flags.add(arg)
    else positional.push(arg)
  }
  const unknown = [...flags].filter((f) => !['--admin', '--super-admin', '--inactive', '--overwrite'].includes(f))
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown.join(', ')}\n${USAGE}`)
  if (positional.length > 3) throw new Error(`Too many arguments\n${USAGE}`)
  const [username, email, password] = positional
  return {
    username,
    email,
    password,
    role: flags.has('--super-admin') ? ROLE_SUPER_ADMIN : flags.has('--admin') ? ROLE_ADMIN : ROLE_USER,
    enabled: !flags.has('--inactive'),
    overwrite: flags.has('--overwrite'),
  }
}

const PROMPTED = ['username', 'email', 'password'] as const

/**
 * Asks for the values missing from the command line when a terminal is
 * attached (the password without echo); without a terminal it fails with a
 * clear message instead of waiting for input that never comes.
 */
async function promptMissing(input: UserCreateInput): Promise<Required<UserCreateInput>> {
  const missing = PROMPTED.filter((k) => !input[k])
  if (missing.length > 0 && !process.stdin.isTTY) {
    throw new Error(`Missing ${missing.join(', ')} and no terminal to ask for them.\n${USAGE}`)
  }
  if (missing.length > 0) {
    let muted = false
    const output = new Writable({
      write(chunk, encoding, callback) {
        if (!muted) process.stdout.write(chunk, encoding)
        callback()
      },
    })
    const rl = createInterface({ input: process.stdin, output, terminal: true })
    try {
      for (const key of missing) {
        if (key === 'password') {
          process.stdout.write('password: ')
          muted = true
          input[key] = await rl.question('')
          muted = false
          process.stdout.write('\n')
        } else {
          input[key] = (await rl.question(`${key}: `)).trim()
        }
      }
    } finally {
      rl.close()
    }
  }
  const empty = PROMPTED.filter((k) => !input[k])
  if (empty.length > 0) throw new Error(`${empty.join(', ')} must not be empty.\n${USAGE}`)
  return input as Required<UserCreateInput>
}

/** JSON property names of the user resource, for violations printed by the command. */
const PROPERTY_NAMES: Record<string, string> = { email: 'emailAddress', password: 'plainPassword' }

/**
 * Creates (or with --overwrite updates) a user. The role is set, not added;
 * users created here are email-verified. A taken username or email prints
 * the violations and exits 1 with nothing saved.
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(
    config,
    () => promptMissing(parseUserCreateArgs(commandArgs(COMMAND))),
    async (payload, input) => {
      const { ValidationError } = await import('payload')
      const data = {
        username: input.username,
        email: input.email,
        password: input.password,
        roles: [input.role],
        enabled: input.enabled,
        emailAddressVerified: true,
      }
      // Payload stores usernames and emails lower-cased and trimmed; compare the same way.
      const owners = async (field: 'username' | 'email', value: string) =>
        (
          await payload.find({
            collection: 'users',
            where: { [field]: { equals: value.trim().toLowerCase() } },
            limit: 1,
            depth: 0,
            pagination: false,
            overrideAccess: true,
          })
        ).docs.map((doc) => String(doc.id))
      const byUsername = await owners('username', input.username)
      const byEmail = await owners('email', input.email)

      let existingId: string | undefined
      if (input.overwrite) {
        const ids = [...new Set([...byUsername, ...byEmail])]
        if (ids.length > 1) {
          console.error('The username and the email belong to two different users; nothing was changed.')
          return 1
        }
        existingId = ids[0]
      } else if (byUsername.length > 0 || byEmail.length > 0) {
        if (byUsername.length > 0) console.error('username: This username is already used.')
        if (byEmail.length > 0) console.error('emailAddress: This email address is already used.')
        console.error('Nothing was saved. Use --overwrite to update the existing user.')
        return 1
      }
      try {
        if (existingId) {
          await payload.update({
            collection: 'users',
            id: existingId,
            data,
            depth: 0,
            overrideAccess: true,
          })
          console.log(`User "${input.username}" updated (${input.role}${input.enabled ? '' : ', disabled'}).`)
        } else {
          await payload.create({ collection: 'users', data, depth: 0, overrideAccess: true })
          console.log(`User "${input.username}" created (${input.role}${input.enabled ? '' : ', disabled'}).`)
        }
        return 0
      } catch (error) {
        if (error instanceof ValidationError) {
          for (const e of error.data.errors) console.error(`${PROPERTY_NAMES[e.path] ?? e.path}: ${e.message}`)
          console.error('Nothing was saved.')
          return 1
        }
        throw error
      }
    },
  )
}

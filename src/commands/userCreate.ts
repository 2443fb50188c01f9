import { getPayload, type SanitizedConfig, ValidationError } from 'payload'
import { createInterface } from 'node:readline/promises'
import { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from '../../plugins/cwa/options'
import { runCommand } from './runCommand'

const USAGE = 'Usage: npx payload cwa:user:create [username] [email] [password] [--admin|--super-admin] [--inactive] [--overwrite]'

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

async function promptMissing(input: UserCreateInput): Promise<Required<UserCreateInput>> {
  const missing = (['username', 'email', 'password'] as const).filter((k) => !input[k])
  if (missing.length > 0 && !process.stdin.isTTY) {
    throw new Error(`Missing ${missing.join(', ')} and no terminal to ask for them.\n${USAGE}`)
  }
  if (missing.length > 0) {
    const rl = createInterface({ input: process.stdin, output: process.stdout })
    try {
      for (const key of missing) input[key] = (await rl.question(`${key}: `)).trim()
    } finally {
      rl.close()
    }
  }
  return input as Required<UserCreateInput>
}

/**
 * Creates (or with --overwrite updates) a user. The role is set, not added;
 * users created here are email-verified. A taken username or email prints
 * the violations and exits 1 with nothing saved.
 */
export async function script(config: SanitizedConfig): Promise<void> {
  const argv = process.argv.slice(process.argv.indexOf('cwa:user:create') + 1)
  await runCommand(config, async (payload) => {
    const input = await promptMissing(parseUserCreateArgs(argv))
    const data = {
      username: input.username,
      email: input.email,
      password: input.password,
      roles: [input.role],
      enabled: input.enabled,
      emailAddressVerified: true,
    }
    const existing = input.overwrite
      ? (
          await payload.find({
            collection: 'users',
            where: { or: [{ username: { equals: input.username } }, { email: { equals: input.email } }] },
            limit: 2,
            depth: 0,
          })
        ).docs
      : []
    if (existing.length > 1) {
      console.error('The username and the email belong to two different users; nothing was changed.')
      return 1
    }
    try {
      if (existing[0]) {
        await payload.update({ collection: 'users', id: existing[0].id, data: data as never, depth: 0 })
        console.log(`User "${input.username}" updated (${input.role}${input.enabled ? '' : ', disabled'}).`)
      } else {
        await payload.create({ collection: 'users', data: data as never, depth: 0 })
        console.log(`User "${input.username}" created (${input.role}${input.enabled ? '' : ', disabled'}).`)
      }
      return 0
    } catch (error) {
      if (error instanceof ValidationError) {
        for (const e of error.data.errors) console.error(`${e.path}: ${e.message}`)
        return 1
      }
      throw error
    }
  })
}

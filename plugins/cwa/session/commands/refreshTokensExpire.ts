import type { Payload } from 'payload'
import { commandArgs, runCommand, type CommandConfig } from '../../core/commands/runCommand.js'

export const COMMAND = 'cwa:refresh-tokens:expire'
const USAGE = `Usage: npx payload ${COMMAND} [value] [--field username|emailAddress]`
const FIELDS = ['username', 'emailAddress'] as const
type Field = (typeof FIELDS)[number]

export interface RefreshTokensExpireInput {
  /** The user to expire the tokens of; every user when absent. */
  value?: string
  field: Field
}

/** Parses the command line of cwa:refresh-tokens:expire (arguments after the command name). */
export function parseRefreshTokensExpireArgs(argv: string[]): RefreshTokensExpireInput {
  const positional: string[] = []
  let field: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--field') {
      if (i + 1 >= argv.length) throw new Error(`--field needs a value: username or emailAddress\n${USAGE}`)
      field = argv[++i]
    } else if (arg.startsWith('--field=')) {
      field = arg.slice('--field='.length)
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new Error(`Unknown option ${arg}\n${USAGE}`)
    } else {
      positional.push(arg)
    }
  }
  if (field !== undefined && !(FIELDS as readonly string[]).includes(field)) {
    throw new Error(`Invalid --field "${field}": only username or emailAddress is accepted.\n${USAGE}`)
  }
  if (positional.length > 1) throw new Error(`Too many arguments\n${USAGE}`)
  const value = positional[0]
  if (value !== undefined && value.trim() === '') throw new Error(`The user value must not be empty.\n${USAGE}`)
  return { value, field: (field ?? 'username') as Field }
}

/** Ids of the users whose field equals the value (Payload stores both lower-cased and trimmed). */
async function usersWhere(
  payload: Payload,
  field: 'username' | 'email',
  value: string,
): Promise<Array<{ id: string; username: string }>> {
  const { docs } = await payload.find({
    collection: 'users',
    where: { [field]: { equals: value.trim().toLowerCase() } },
    depth: 0,
    limit: 2,
    pagination: false,
    overrideAccess: true,
  })
  return docs.map((doc) => ({ id: String(doc.id), username: String((doc as { username?: unknown }).username ?? '') }))
}

/**
 * Expires every refresh token, or those of one user (found by username, or
 * by emailAddress with --field emailAddress). A value that is one user's
 * username and another user's email is ambiguous: nothing is expired, exit 1.
 */
export async function script(config: CommandConfig): Promise<void> {
  await runCommand(
    config,
    () => parseRefreshTokensExpireArgs(commandArgs(COMMAND)),
    async (payload, input) => {
      const [{ getOptions }, { RefreshTokenStore }] = await Promise.all([
        import('../../core/registry.js'),
        import('../refreshTokens.js'),
      ])
      const store = new RefreshTokenStore(payload, getOptions(payload.config).session.refreshTtl)
      if (input.value === undefined) {
        const count = await store.expire()
        console.log(`Expired ${count} refresh token(s) of all users.`)
        return 0
      }
      const byUsername = await usersWhere(payload, 'username', input.value)
      const byEmail = await usersWhere(payload, 'email', input.value)
      const other = (a: typeof byUsername, b: typeof byUsername) => a.some((x) => b.some((y) => y.id !== x.id))
      if (byUsername.length > 0 && byEmail.length > 0 && other(byUsername, byEmail)) {
        console.error(
          `"${input.value}" is the username of "${byUsername[0]!.username}" and the email address of "${byEmail[0]!.username}": ` +
            'ambiguous, no refresh token was expired.',
        )
        return 1
      }
      const [user] = input.field === 'username' ? byUsername : byEmail
      if (!user) {
        console.error(`No user with ${input.field} "${input.value}"; no refresh token was expired.`)
        return 1
      }
      const count = await store.expire(user.id)
      console.log(`Expired ${count} refresh token(s) of user "${user.username}".`)
      return 0
    },
  )
}

import type { Endpoint } from 'payload'

/** Payload's REST endpoints are outside the JSON-LD pipeline: their answers set their own header. */
// eslint-disable-next-line no-restricted-syntax -- Payload's REST API, not the pipeline
const PRIVATE = { 'Cache-Control': 'private, no-store' }

/**
 * Payload's own password reset endpoints (`POST /api/users/forgot-password`,
 * `/reset-password`) would mail their own token and link, past this plugin's
 * link rules, throttling and token store. They are closed: the reset goes
 * through `{api_prefix}/password/reset/request/{username}` and the
 * password_reset form. Custom endpoints come before Payload's defaults, so
 * these answer first.
 */
export function closedPasswordEndpoints(apiPrefix: string): Endpoint[] {
  const closed = (path: string): Endpoint => ({
    path,
    method: 'post',
    handler: () =>
      Response.json(
        {
          errors: [
            { message: `Not available: request a reset with GET ${apiPrefix}/password/reset/request/{username}.` },
          ],
        },
        { status: 404, headers: PRIVATE },
      ),
  })
  return [
    closed('/forgot-password'),
    closed('/reset-password'),
    ...(firstRegisterOpen() ? [] : [closedFirstRegister()]),
  ]
}

/**
 * Payload's `POST /api/users/first-register` (the admin panel's "create the
 * first user" screen) makes whoever calls it first on an empty site a super
 * admin: on a fresh production deployment that is the first anonymous
 * visitor. It stays open in development and tests (the README's quick
 * start) and is closed when NODE_ENV is `production` at start (read when
 * the config is built: Next.js later sets NODE_ENV=production for the whole
 * process); there, the first super admin comes from `npx payload cwa:user:create`.
 */
export function firstRegisterOpen(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV !== 'production'
}

function closedFirstRegister(): Endpoint {
  return {
    path: '/first-register',
    method: 'post',
    handler: () =>
      Response.json(
        {
          errors: [
            {
              message:
                'Not available in production: create the first super admin with `npx payload cwa:user:create <username> <email> <password> --super-admin`.',
            },
          ],
        },
        { status: 404, headers: PRIVATE },
      ),
  }
}

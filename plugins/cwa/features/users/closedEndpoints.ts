import type { Endpoint } from 'payload'

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
        { errors: [{ message: `Not available: request a reset with GET ${apiPrefix}/password/reset/request/{username}.` }] },
        { status: 404, headers: { 'Cache-Control': 'private, no-store' } },
      ),
  })
  return [closed('/forgot-password'), closed('/reset-password')]
}

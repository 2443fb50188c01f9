import { type Endpoint, withInput } from '../hydra/endpoint.js'
import { unauthorized } from '../hydra/errors.js'
import { credentialsInput } from './inputs.js'
import { loadItem } from '../hydra/operations.js'
import type { ResourceRegistry } from '../core/registry.js'
import { REUSE_DETECTED, UNVERIFIED } from './authenticateRequest.js'
import { readCookies } from './cookies.js'
import { sessionDocs } from './openapi.js'
import { clearSessionCookies, refreshSession, setSessionCookies } from './refresh.js'
import { sessionServices } from './services.js'

/** Payload's errors for a refused login. */
const LOGIN_REFUSALS = new Set(['AuthenticationError', 'LockedAuth', 'ValidationError'])

/** POST /login, POST /token/refresh, POST /logout and GET /me (when the site has users). */
export function sessionEndpoints(registry: ResourceRegistry): Endpoint[] {
  const endpoints: Endpoint[] = [
    withInput({
      method: 'POST',
      path: '/login',
      security: 'public',
      cache: 'no-store',
      input: credentialsInput,
      handler: async (ctx, { body, responseHeaders }) => {
        const { username, password } = body
        // `req` carries the request's headers: the login throttle keys on the client address.
        const result = await ctx.payload
          // cast: Payload's untyped login data requires `email`; the users collection logs in by username
          .login({ collection: 'users', data: { username, password } as never, depth: 0, req: ctx.req })
          .catch((error: unknown) => {
            // Wrong password, unknown or disabled user, locked account: all the same 401.
            // Anything else (database down...) is a server error, not "invalid credentials".
            const name = (error as { name?: string })?.name ?? ''
            // Only raised after the right password (user checker): saying why helps the owner and tells nobody else anything.
            if (name === 'UnverifiedEmail') throw unauthorized(UNVERIFIED)
            if (LOGIN_REFUSALS.has(name)) throw unauthorized('Invalid credentials.')
            throw error
          })
        const user: { id: string | number; username?: string; roles?: string[]; enabled?: boolean } | undefined =
          result.user
        // Payload's login returns the user whenever it does not throw (its result type leaves it optional).
        if (!user) throw new Error('The login returned no user')
        if (user.enabled === false) throw unauthorized('Invalid credentials.')
        const services = await sessionServices(ctx.payload)
        const issued = await services.refreshTokens.issue(String(user.id))
        setSessionCookies(responseHeaders, ctx.options, await services.jwt.sign(user, issued.session), issued.token)
        return { status: 204 }
      },
      docs: sessionDocs.login,
    }),
    {
      method: 'POST',
      path: '/token/refresh',
      security: 'public',
      cache: 'no-store',
      /**
       * A new JWT and a new refresh token from the refresh-token cookie. The
       * used refresh token is spent: presented again after the grace period
       * it revokes every refresh token of its user. The user is read from
       * the database, so a disabled or deleted user gets no new token and
       * changed roles take effect. With denyUnverifiedLogin an unverified
       * user is refused like a login (401) and both cookies are cleared.
       */
      handler: async (ctx, { responseHeaders }) => {
        const services = await sessionServices(ctx.payload)
        const result = await refreshSession(
          services,
          readCookies(ctx.headers.get('cookie')).get(ctx.options.session.refreshCookieName),
        )
        if (result.status === 'reused') throw unauthorized(REUSE_DETECTED)
        if (result.status === 'invalid') throw unauthorized('Missing, expired or revoked refresh token.')
        if (result.status === 'unverified') {
          clearSessionCookies(responseHeaders, ctx.options)
          throw unauthorized(UNVERIFIED)
        }
        setSessionCookies(responseHeaders, ctx.options, result.jwt, result.refreshToken)
        return { status: 204 }
      },
      docs: sessionDocs.refresh,
    },
    {
      method: 'POST',
      path: '/logout',
      security: 'public',
      handler: async (ctx, { responseHeaders }) => {
        const refresh = readCookies(ctx.headers.get('cookie')).get(ctx.options.session.refreshCookieName)
        if (refresh) await (await sessionServices(ctx.payload)).refreshTokens.revoke(refresh)
        clearSessionCookies(responseHeaders, ctx.options)
        return { status: 204 }
      },
      docs: sessionDocs.logout,
    },
  ]
  const users = registry.ofKind('user')[0]
  if (users) {
    endpoints.push({
      method: 'GET',
      path: '/me',
      security: 'signed-in',
      cache: 'no-store',
      handler: async (ctx) => {
        const doc = await loadItem(users, String(ctx.user!.id), ctx, { filtered: false })
        return { status: 200, item: { resource: users, doc } }
      },
      docs: sessionDocs.me(users),
    })
  }
  return endpoints
}

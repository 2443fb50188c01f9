import express, { type NextFunction, type Request, type Response, type Router } from 'express'
import type { Payload } from 'payload'
import type { ResolvedCwaOptions } from '../../plugins/cwa/options'
import { badRequest, HttpError, unauthorized } from '../hydra/errors'
import { buildContext, handle } from '../hydra/http'
import { normalizeItem } from '../hydra/normalizer'
import { loadItem } from '../hydra/operations'
import { getOptions, getRegistry } from '../hydra/registry'
import { authenticate, InvalidToken } from './authenticate'
import { clearCookie, readCookies, serializeCookie } from './cookies'
import type { JwtService } from './jwt'
import type { RefreshTokenStore } from './refreshTokens'

export interface SessionServices {
  jwt: JwtService
  refreshTokens: RefreshTokenStore
}

/**
 * Session paths that must work with a stale JWT: the browser keeps sending the
 * JWT cookie (lifetime 604800 s) long after the token itself expired (3600 s),
 * and it is exactly then that the client logs in again or refreshes.
 */
const SESSION_PATHS = new Set(['/login', '/logout', '/token/refresh'])

/** Resolves the caller from the JWT cookie or bearer header into `res.locals.user`. */
export function sessionMiddleware(services: SessionServices, options: ResolvedCwaOptions) {
  return async (req: Request, response: Response, next: NextFunction) => {
    try {
      response.locals.user = await authenticate(
        { cookie: req.headers.cookie, authorization: req.headers.authorization },
        services.jwt,
        options.session.cookieName,
      )
      next()
    } catch (error) {
      if (error instanceof InvalidToken) {
        if (req.method === 'POST' && SESSION_PATHS.has(req.path.replace(/\/+$/, ''))) {
          response.locals.user = null
          return next()
        }
        return next(new HttpError(401, error.message))
      }
      next(error)
    }
  }
}

/** Payload's errors for a refused login. */
const LOGIN_REFUSALS = new Set(['AuthenticationError', 'LockedAuth', 'UnverifiedEmail', 'ValidationError'])

function cookiePath(options: ResolvedCwaOptions): string {
  return options.apiPrefix || '/'
}

/** POST /login, POST /token/refresh, POST /logout, GET /me. */
export function sessionRoutes(payload: Payload, services: SessionServices): Router {
  const options = getOptions(payload.config)
  const { session } = options
  const router = express.Router()

  router.post('/login', async (req, response, next) => {
    try {
      const { username, password } = (req.body ?? {}) as { username?: unknown; password?: unknown }
      if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
        throw badRequest('The body must hold "username" and "password" strings.')
      }
      const result = await payload
        .login({ collection: 'users', data: { username, password } as never, depth: 0 })
        .catch((error: unknown) => {
          // Wrong password, unknown or disabled user, locked account: all the same 401.
          // Anything else (database down...) is a server error, not "invalid credentials".
          if (LOGIN_REFUSALS.has((error as { name?: string })?.name ?? '')) throw unauthorized('Invalid credentials.')
          throw error
        })
      const user = result.user as unknown as { id: string; username?: string; roles?: string[]; enabled?: boolean }
      if (user.enabled === false) throw unauthorized('Invalid credentials.')
      const token = await services.jwt.sign(user)
      const refresh = await services.refreshTokens.issue(String(user.id))
      response.append('Set-Cookie', serializeCookie(session.cookieName, token, { maxAge: session.refreshTtl, path: '/', sameSite: session.sameSite }))
      response.append(
        'Set-Cookie',
        serializeCookie(session.refreshCookieName, refresh, { maxAge: session.refreshTtl, path: cookiePath(options), sameSite: session.sameSite }),
      )
      response.setHeader('Cache-Control', 'private, no-store')
      response.status(204).end()
    } catch (error) {
      next(error)
    }
  })

  /**
   * A new JWT from the refresh-token cookie (public path). The user is read
   * from the database, so a disabled or deleted user gets no new token and
   * changed roles take effect.
   */
  router.post('/token/refresh', async (req, response, next) => {
    try {
      const refresh = readCookies(req.headers.cookie).get(session.refreshCookieName) ?? ''
      const userId = await services.refreshTokens.userOf(refresh)
      if (!userId) throw unauthorized('Missing, expired or revoked refresh token.')
      const user = (await payload
        .findByID({ collection: 'users', id: userId, depth: 0, overrideAccess: true, disableErrors: true })
        .catch(() => null)) as { id: string; username?: string; roles?: string[]; enabled?: boolean } | null
      if (!user || user.enabled === false) throw unauthorized('Invalid refresh token.')
      const token = await services.jwt.sign(user)
      response.append('Set-Cookie', serializeCookie(session.cookieName, token, { maxAge: session.refreshTtl, path: '/', sameSite: session.sameSite }))
      response.setHeader('Cache-Control', 'private, no-store')
      response.status(204).end()
    } catch (error) {
      next(error)
    }
  })

  router.post('/logout', async (req, response, next) => {
    try {
      const refresh = readCookies(req.headers.cookie).get(session.refreshCookieName)
      if (refresh) await services.refreshTokens.revoke(refresh)
      response.append('Set-Cookie', clearCookie(session.cookieName, '/', session.sameSite))
      response.append('Set-Cookie', clearCookie(session.refreshCookieName, cookiePath(options), session.sameSite))
      response.status(204).end()
    } catch (error) {
      next(error)
    }
  })

  router.get(
    '/me',
    handle(payload, async (ctx) => {
      if (!ctx.user) throw unauthorized()
      const resource = getRegistry(payload.config).bySlug('users')!
      const doc = await loadItem(resource, String(ctx.user.id), ctx, { filtered: false })
      return { status: 200, body: await normalizeItem(resource, doc, ctx), headers: { 'Cache-Control': 'private, no-store' } }
    }),
  )
  return router
}

export { buildContext }

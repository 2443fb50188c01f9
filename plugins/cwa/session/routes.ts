import express, { type NextFunction, type Request, type Response, type Router } from 'express'
import type { Payload } from 'payload'
import type { ResolvedCwaOptions } from '../options'
import { badRequest, HttpError, unauthorized } from '../hydra/errors'
import { buildContext, handle } from '../hydra/http'
import { normalizeItem } from '../hydra/normalizer'
import { loadItem } from '../hydra/operations'
import { getOptions, getRegistry } from '../hydra/registry'
import { InvalidToken, presentedCredentials, sessionUser } from './authenticate'
import { readCookies } from './cookies'
import { clearSessionCookies, refreshSession, type SessionServices, setSessionCookies } from './refresh'

export type { SessionServices }

/**
 * Session paths that must work with a stale JWT: the browser keeps sending the
 * JWT cookie (lifetime 604800 s) long after the token itself expired (3600 s),
 * and it is exactly then that the client logs in again or refreshes. They
 * never refresh transparently: /token/refresh rotates the token itself and
 * /logout revokes the one presented.
 */
const SESSION_PATHS = new Set(['/login', '/logout', '/token/refresh'])

const UNVERIFIED = 'Your email address has not been verified yet.'

const REUSE_DETECTED = 'Refresh token reuse detected: every session of this user has been revoked.'

/**
 * Resolves the caller into `res.locals.user`: from the JWT cookie, else the
 * bearer header. A JWT cookie that expired (or is missing) beside a valid
 * refresh cookie is refreshed transparently: the request proceeds
 * authenticated and the response carries the new cookies (the refresh token
 * rotates). An expired bearer token stays 401: a client sending headers
 * refreshes itself.
 */
export function sessionMiddleware(services: SessionServices, options: ResolvedCwaOptions) {
  const { session } = options
  return async (req: Request, response: Response, next: NextFunction) => {
    const path = req.path.replace(/\/+$/, '')
    const credentials = presentedCredentials({ cookie: req.headers.cookie, authorization: req.headers.authorization }, session.cookieName)
    const refreshToken = readCookies(req.headers.cookie).get(session.refreshCookieName)
    const mayRefresh = Boolean(refreshToken) && !SESSION_PATHS.has(path)

    /** Transparent refresh; null when the refresh token is not usable. */
    const refreshed = async () => {
      const result = await refreshSession(services, refreshToken)
      if (result.status === 'reused') throw new HttpError(401, REUSE_DETECTED)
      if (result.status === 'unverified') clearSessionCookies(response, options)
      if (result.status !== 'refreshed') return null
      setSessionCookies(response, options, result.jwt, result.refreshToken)
      return result.user
    }

    try {
      const token = credentials.cookie || credentials.bearer
      if (!token) {
        response.locals.user = mayRefresh ? await refreshed() : null
        return next()
      }
      try {
        response.locals.user = sessionUser(await services.jwt.verify(token))
        return next()
      } catch (error) {
        if (!(error instanceof InvalidToken)) throw error
        if (error.reason === 'expired' && credentials.cookie && mayRefresh) {
          const user = await refreshed()
          if (user) {
            response.locals.user = user
            return next()
          }
        }
        if (req.method === 'POST' && SESSION_PATHS.has(path)) {
          response.locals.user = null
          return next()
        }
        throw new HttpError(401, error.message)
      }
    } catch (error) {
      next(error)
    }
  }
}

/** Payload's errors for a refused login. */
const LOGIN_REFUSALS = new Set(['AuthenticationError', 'LockedAuth', 'ValidationError'])

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
          const name = (error as { name?: string })?.name ?? ''
          // Only raised after the right password (user checker): saying why helps the owner and tells nobody else anything.
          if (name === 'UnverifiedEmail') throw unauthorized(UNVERIFIED)
          if (LOGIN_REFUSALS.has(name)) throw unauthorized('Invalid credentials.')
          throw error
        })
      const user = result.user as unknown as { id: string; username?: string; roles?: string[]; enabled?: boolean }
      if (user.enabled === false) throw unauthorized('Invalid credentials.')
      const token = await services.jwt.sign(user)
      const refresh = await services.refreshTokens.issue(String(user.id))
      setSessionCookies(response, options, token, refresh)
      response.status(204).end()
    } catch (error) {
      next(error)
    }
  })

  /**
   * A new JWT and a new refresh token from the refresh-token cookie (public
   * path). The used refresh token is spent: presented again after the grace
   * period it revokes every refresh token of its user. The user is read from
   * the database, so a disabled or deleted user gets no new token and
   * changed roles take effect. With denyUnverifiedLogin an unverified user
   * is refused like a login (401) and both cookies are cleared.
   */
  router.post('/token/refresh', async (req, response, next) => {
    try {
      const result = await refreshSession(services, readCookies(req.headers.cookie).get(session.refreshCookieName))
      if (result.status === 'reused') throw unauthorized(REUSE_DETECTED)
      if (result.status === 'invalid') throw unauthorized('Missing, expired or revoked refresh token.')
      if (result.status === 'unverified') {
        clearSessionCookies(response, options)
        throw unauthorized(UNVERIFIED)
      }
      setSessionCookies(response, options, result.jwt, result.refreshToken)
      response.status(204).end()
    } catch (error) {
      next(error)
    }
  })

  router.post('/logout', async (req, response, next) => {
    try {
      const refresh = readCookies(req.headers.cookie).get(session.refreshCookieName)
      if (refresh) await services.refreshTokens.revoke(refresh)
      clearSessionCookies(response, options)
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

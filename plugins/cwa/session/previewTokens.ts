import type { Payload, PayloadRequest } from 'payload'
import { HttpError } from '../hydra/errors.js'
import { InvalidToken } from './jwt.js'
import { tokenStanding } from './revocation.js'
import { sessionServices } from './services.js'

/**
 * Previews of drafts on a front end, for an editor signed in to the admin panel. The panel gives the front end a
 * link holding a token that lives one minute and can do nothing but be exchanged (`preview-link`); the front end
 * exchanges it (POST {prefix}/_/preview, server to server) for a preview token (`preview`) that reads with the
 * editor's rights for a session token's lifetime and never writes. Nothing in a URL outlives a minute, and the
 * front end needs no key of its own.
 */
export const PREVIEW_LINK_SECONDS = 60

export interface PreviewUser {
  id: string | number
  username?: string | null
  roles?: string[] | null
  tokenVersion?: number | null
}

/** A preview link's token for the editor and a path of the front end. */
export async function signPreviewLink(payload: Payload, user: PreviewUser, path: string): Promise<string> {
  const { jwt } = await sessionServices(payload)
  return jwt.signScoped(user, 'preview-link', PREVIEW_LINK_SECONDS, { path })
}

export interface PreviewSession {
  /** The preview token: `Authorization: Bearer <token>` on the front end's reads. */
  token: string
  /** The front end's path the link was made for. */
  path: string
  expiresAt: string
}

const EXPIRED = 'This preview link has expired: open the preview again from the admin panel.'

/** Exchanges a link's token for a preview token: 401 when it is not a live link of a user who may still sign in. */
export async function exchangePreviewLink(req: PayloadRequest, linkToken: string): Promise<PreviewSession> {
  const { jwt } = await sessionServices(req.payload)
  let claims
  try {
    claims = await jwt.verify(linkToken)
  } catch (error) {
    if (error instanceof InvalidToken && error.reason === 'expired') throw new HttpError(401, EXPIRED)
    throw new HttpError(401, 'This is not a preview link.')
  }
  if (claims.scope !== 'preview-link' || typeof claims.path !== 'string')
    throw new HttpError(401, 'This is not a preview link.')
  if (claims.exp * 1000 < Date.now()) throw new HttpError(401, EXPIRED)
  if ((await tokenStanding(req.payload, claims)) !== 'current')
    throw new HttpError(401, 'The editor of this preview link can no longer sign in with it.')
  const user = await req.payload.findByID({
    collection: 'users',
    id: claims.sub,
    depth: 0,
    overrideAccess: true,
    disableErrors: true,
    req,
  })
  if (!user) throw new HttpError(401, 'The editor of this preview link can no longer sign in with it.')
  const fields: Record<string, unknown> = user
  const record: PreviewUser = {
    id: claims.sub,
    username: typeof fields.username === 'string' ? fields.username : '',
    roles: Array.isArray(fields.roles) ? fields.roles.filter((role) => typeof role === 'string') : [],
    tokenVersion: Number(fields.tokenVersion ?? 0),
  }
  // As long as a session token lives (signScoped never goes past it).
  const token = await jwt.signScoped(record, 'preview', Number.POSITIVE_INFINITY)
  const { exp } = await jwt.verify(token)
  return { token, path: claims.path, expiresAt: new Date(exp * 1000).toISOString() }
}

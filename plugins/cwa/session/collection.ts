import type { CollectionConfig } from 'payload'
import { closedToEveryone } from '../core/access.js'
import { type CoreContext, tableName } from '../core/context.js'

/**
 * Server-side refresh tokens. Only a SHA-256 of each token is stored; the
 * raw value lives in the client's HttpOnly cookie. Never exposed by any API.
 */
export function refreshTokensCollection(ctx: CoreContext): CollectionConfig {
  return {
    slug: 'refresh_tokens',
    dbName: tableName(ctx, 'refresh_tokens'),
    admin: { hidden: true },
    access: closedToEveryone,
    fields: [
      { name: 'user', type: 'relationship', relationTo: 'users', required: true, index: true },
      { name: 'tokenHash', type: 'text', required: true, unique: true },
      { name: 'expiresAt', type: 'date', required: true, index: true },
      { name: 'revokedAt', type: 'date' },
    ],
  }
}

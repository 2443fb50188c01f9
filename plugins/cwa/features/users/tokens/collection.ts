import type { CollectionConfig } from 'payload'
import { closedToEveryone } from '../../../core/access.js'
import { type CoreContext, tableName } from '../../../core/context.js'

/** What an emailed token is for. */
export const TOKEN_PURPOSES = ['password_reset', 'email_verification', 'new_email'] as const
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number]

/**
 * Tokens of the email flows (password reset, verification, new email
 * confirmation). Only a SHA-256 of each token is stored; the raw value is
 * only ever in the emailed link. One live row per user and purpose (a
 * newer email replaces it); a used, replaced or cancelled one stays as a
 * "spent" row (no usable hash) while its send counts for the repeat wait
 * (429), which `sentAt` drives. Rows without a user are placeholders for unknown usernames
 * when password reset conceals them: they only hold a throttle.
 * Never exposed by any API: server code reaches it with overrideAccess or SQL.
 */
export function userTokensCollection(ctx: CoreContext): CollectionConfig {
  return {
    slug: 'user_tokens',
    dbName: tableName(ctx, 'user_tokens'),
    admin: { hidden: true },
    access: closedToEveryone,
    fields: [
      { name: 'purpose', type: 'select', options: [...TOKEN_PURPOSES], required: true },
      { name: 'user', type: 'relationship', relationTo: 'users', index: true },
      // The throttle key: the user id, or a hash of the identifier asked for when there is no such user.
      { name: 'subject', type: 'text', required: true, index: true },
      { name: 'tokenHash', type: 'text', required: true, unique: true },
      { name: 'expiresAt', type: 'date', required: true },
      { name: 'sentAt', type: 'date', required: true },
      // Flow data bound to the token: the address the link was sent to (verification) or the pending new address.
      { name: 'data', type: 'text' },
    ],
  }
}

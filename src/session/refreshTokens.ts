import { createHash, randomBytes } from 'node:crypto'
import type { Payload } from 'payload'

const hash = (token: string) => createHash('sha256').update(token).digest('hex')

/** Issues and checks server-side refresh tokens (stored hashed). */
export class RefreshTokenStore {
  constructor(
    private readonly payload: Payload,
    private readonly ttlSeconds: number,
  ) {}

  async issue(userId: string): Promise<string> {
    const token = randomBytes(48).toString('base64url')
    await this.payload.create({
      collection: 'refresh_tokens' as never,
      data: {
        user: userId,
        tokenHash: hash(token),
        expiresAt: new Date(Date.now() + this.ttlSeconds * 1000).toISOString(),
      } as never,
      overrideAccess: true,
      depth: 0,
    })
    return token
  }

  /**
   * The user id of a token that is known, not revoked and not expired;
   * null otherwise.
   */
  async userOf(token: string): Promise<string | null> {
    if (!token) return null
    const found = await this.payload.find({
      collection: 'refresh_tokens' as never,
      where: {
        and: [
          { tokenHash: { equals: hash(token) } },
          { revokedAt: { exists: false } },
          { expiresAt: { greater_than: new Date().toISOString() } },
        ],
      },
      depth: 0,
      limit: 1,
      pagination: false,
      overrideAccess: true,
    })
    const record = found.docs[0] as { user?: unknown } | undefined
    const user = record?.user
    if (user == null) return null
    return typeof user === 'object' ? String((user as { id: unknown }).id) : String(user)
  }

  /** Marks a token revoked (logout). Unknown tokens are ignored. */
  async revoke(token: string): Promise<void> {
    await this.payload.update({
      collection: 'refresh_tokens' as never,
      where: { tokenHash: { equals: hash(token) } },
      data: { revokedAt: new Date().toISOString() } as never,
      overrideAccess: true,
      depth: 0,
    })
  }
}

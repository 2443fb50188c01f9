import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions } from '../../core/options.js'

/**
 * Options of the real-time feature: where the Mercure hub is, the secret
 * its publisher JWTs are signed with, and the subscriber cookie. Every
 * default is here. Publishing is off until `url` is set (the reference
 * deployment maps MERCURE_URL, MERCURE_PUBLIC_URL and MERCURE_JWT_SECRET).
 */
export interface MercureOptions {
  /** The hub's publish URL, as the service reaches it (MERCURE_URL). Unset: publishing is off. */
  url?: string | null
  /** The hub's subscribe URL, as browsers reach it (MERCURE_PUBLIC_URL); announced in `Link: <...>; rel="mercure"`. Default: `url`. */
  publicUrl?: string | null
  /** The HMAC secret (HS256) of publisher and subscriber JWTs (MERCURE_JWT_SECRET). Required with `url`. */
  jwtSecret?: string | null
  /** Base of the absolute IRIs used as topics (`https://example.com`). Default: Payload's serverURL. */
  topicBase?: string | null
  /** Publish changes of the core resources too (layouts, pages, routes, component groups and positions). Default true. */
  coreResources?: boolean
  /** The subscriber cookie set for signed-in admins, so they receive private (draft) updates. */
  cookie?: { name?: string; sameSite?: 'lax' | 'strict' | 'none'; domain?: string | null }
  /** Attempts per update after the first one failed (the hub is down or answers 5xx). Default 2. */
  retries?: number
  /** Delay before the first retry, in ms; doubled for each next one. Default 250. */
  retryDelay?: number
  /** Time allowed for one publish request, in ms. Default 5000. */
  timeout?: number
}

export interface ResolvedMercure {
  url: string | null
  publicUrl: string | null
  jwtSecret: string | null
  topicBase: string | null
  coreResources: boolean
  cookie: { name: string; sameSite: 'lax' | 'strict' | 'none'; domain: string | null }
  retries: number
  retryDelay: number
  timeout: number
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    /** The Mercure hub that receives every change of real-time types ([real-time](docs/realtime.md)). Default: off. */
    mercure?: MercureOptions
  }
  interface ResolvedCwaOptions {
    mercure: ResolvedMercure
  }
}

declare module '../../core/types.js' {
  interface FeatureDeclarations {
    /** Broadcast every create, update, delete and publication of this type to the hub (`realtime` is accepted as an alias). */
    mercure?: boolean
  }
}

export const realtimeOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'mercure'>> = {
  mercure: {
    url: true,
    publicUrl: true,
    jwtSecret: true,
    topicBase: true,
    coreResources: true,
    cookie: { name: true, sameSite: true, domain: true },
    retries: true,
    retryDelay: true,
    timeout: true,
  },
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)
const count = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback

function absoluteUrl(value: string | null, key: string): string | null {
  if (value === null) return null
  try {
    return new URL(value).href
  } catch {
    throw new Error(`cwa options: mercure.${key} must be an absolute URL (got ${JSON.stringify(value)})`)
  }
}

export function resolveRealtimeOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, 'mercure'> {
  const given = options.mercure ?? {}
  const url = absoluteUrl(text(given.url), 'url')
  const jwtSecret = text(given.jwtSecret)
  if (url && !jwtSecret)
    throw new Error(
      'cwa options: mercure.jwtSecret (MERCURE_JWT_SECRET) is required when mercure.url (MERCURE_URL) is set',
    )
  const sameSite = given.cookie?.sameSite ?? 'lax'
  if (!['lax', 'strict', 'none'].includes(sameSite))
    throw new Error(
      `cwa options: mercure.cookie.sameSite must be lax, strict or none (got ${JSON.stringify(sameSite)})`,
    )
  return {
    mercure: {
      url,
      publicUrl: absoluteUrl(text(given.publicUrl), 'publicUrl') ?? url,
      jwtSecret,
      topicBase: text(given.topicBase)?.replace(/\/+$/, '') ?? null,
      coreResources: given.coreResources ?? true,
      cookie: {
        name: text(given.cookie?.name) ?? 'mercureAuthorization',
        sameSite,
        domain: text(given.cookie?.domain),
      },
      retries: count(given.retries, 2),
      retryDelay: count(given.retryDelay, 250),
      timeout: count(given.timeout, 5000),
    },
  }
}

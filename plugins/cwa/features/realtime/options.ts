import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions } from '../../core/options.js'

/**
 * Options of the real-time feature: where the Mercure hub is, the secret
 * its publisher JWTs are signed with, the subscriber cookie, and the
 * embedded hub with its limits. Every default is here. Publishing is off
 * until `url` is set or the embedded hub runs (the reference deployment maps
 * MERCURE_URL, MERCURE_PUBLIC_URL, MERCURE_JWT_SECRET and MERCURE_EMBEDDED).
 */
export interface MercureOptions {
  /** The hub's publish URL, as the service reaches it (MERCURE_URL). Unset: publishing is off. */
  url?: string | null
  /**
   * The hub's subscribe URL, as browsers reach it (MERCURE_PUBLIC_URL); announced in `Link: <...>; rel="mercure"`.
   * Default: `url`; the embedded hub's: `/.well-known/mercure` on Payload's serverURL, else on the request's origin.
   */
  publicUrl?: string | null
  /**
   * The HMAC secret (HS256) of publisher and subscriber JWTs (MERCURE_JWT_SECRET). Required with `url`; the
   * embedded hub, when it is unset, derives its own from Payload's secret.
   */
  jwtSecret?: string | null
  /** Base of the absolute IRIs used as topics (`https://example.com`). Default: Payload's serverURL. */
  topicBase?: string | null
  /** Publish changes of the core resources too (layouts, pages, routes, component groups and positions). Default true. */
  coreResources?: boolean
  /** The subscriber cookie set for signed-in admins, so they receive private (draft) updates. */
  cookie?: { name?: string; sameSite?: 'lax' | 'strict' | 'none'; domain?: string | null }
  /**
   * Seconds the subscriber JWT (the cookie) lives at most; it never outlives
   * the session JWT it was issued with, and every JSON-LD response to the
   * signed-in admin (login and refresh included) issues a fresh one. A real
   * hub ends a stream when its JWT expires, so this bounds how long a stream
   * outlives a logout there. Default 600.
   */
  subscriberTtl?: number
  /** Attempts per update after the first one failed (the hub is down or answers 5xx). Default 2. */
  retries?: number
  /** Delay before the first retry, in ms; doubled for each next one. Default 250. */
  retryDelay?: number
  /** Time allowed for one publish request, in ms. Default 5000. */
  timeout?: number
  /**
   * Without `url`: serve a hub in this process at `/.well-known/mercure` (the
   * Express app of 'payload-cwa/express', once `startEmbeddedHub` ran). One
   * instance only: the start refuses it when another instance on the
   * database runs one, or with read replicas. Default false (the reference
   * deployment: MERCURE_EMBEDDED, on outside production).
   */
  embedded?: boolean
  /** Limits of the embedded hub. */
  hub?: HubLimitOptions
}

export interface HubLimitOptions {
  /** Open subscriptions at most; one more is answered 503. Default 1000. */
  maxSubscribers?: number
  /** Updates kept for `Last-Event-ID` replays (the oldest goes first). Default 1000. */
  history?: number
  /**
   * Bytes a subscriber may leave unread before it is disconnected (a slow
   * consumer must not grow the process's memory); also the largest update
   * the hub takes. Default 1 MiB.
   */
  maxBufferedBytes?: number
  /** Milliseconds between heartbeats (an SSE comment that keeps proxies from closing an idle stream); 0: none. Default 15000. */
  heartbeat?: number
  /**
   * Open subscriptions per client at most (the JWT's subject when the
   * subscriber has one, else its address as `trust proxy` / TRUST_PROXY
   * determines it, as the login throttle does); one more is answered 429
   * with Retry-After, so that one client cannot take every place. Default 50.
   */
  maxSubscribersPerClient?: number
  /** Topic selectors (`topic` parameters) per subscription at most; more is a 400. Default 20. */
  maxSelectors?: number
  /** Characters per topic selector at most; longer is a 400 (a selector's matching cost grows with it). Default 512. */
  maxSelectorLength?: number
}

export type HubLimits = Required<HubLimitOptions>

export interface ResolvedMercure {
  url: string | null
  publicUrl: string | null
  jwtSecret: string | null
  topicBase: string | null
  coreResources: boolean
  cookie: { name: string; sameSite: 'lax' | 'strict' | 'none'; domain: string | null }
  subscriberTtl: number
  retries: number
  retryDelay: number
  timeout: number
  embedded: boolean
  hub: HubLimits
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
    /** Broadcast every create, update, delete and publication of this type to the hub. */
    mercure?: boolean
    /** An alias of `mercure` (the name earlier releases used). */
    realtime?: boolean
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
    subscriberTtl: true,
    retries: true,
    retryDelay: true,
    timeout: true,
    embedded: true,
    hub: {
      maxSubscribers: true,
      history: true,
      maxBufferedBytes: true,
      heartbeat: true,
      maxSubscribersPerClient: true,
      maxSelectors: true,
      maxSelectorLength: true,
    },
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
      subscriberTtl: Math.max(1, count(given.subscriberTtl, 600)),
      retries: count(given.retries, 2),
      retryDelay: count(given.retryDelay, 250),
      timeout: count(given.timeout, 5000),
      embedded: given.embedded === true,
      hub: {
        maxSubscribers: count(given.hub?.maxSubscribers, 1000),
        history: count(given.hub?.history, 1000),
        maxBufferedBytes: count(given.hub?.maxBufferedBytes, 1024 * 1024),
        heartbeat: count(given.hub?.heartbeat, 15_000),
        maxSubscribersPerClient: count(given.hub?.maxSubscribersPerClient, 50),
        maxSelectors: count(given.hub?.maxSelectors, 20),
        maxSelectorLength: count(given.hub?.maxSelectorLength, 512),
      },
    },
  }
}

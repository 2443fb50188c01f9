import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/**
 * Options of the real-time feature, declared once (core/defineOptions.ts):
 * where the Mercure hub is, the secret its publisher JWTs are signed with,
 * the subscriber cookie, and the embedded hub with its limits. Publishing
 * is off until `url` is set or the embedded hub runs (the reference
 * deployment maps MERCURE_URL, MERCURE_PUBLIC_URL, MERCURE_JWT_SECRET and
 * MERCURE_EMBEDDED).
 */

declare module '../../core/types.js' {
  interface FeatureDeclarations {
    /** Broadcast every create, update, delete and publication of this type to the hub. */
    mercure?: boolean
    /** An alias of `mercure` (the name earlier releases used). */
    realtime?: boolean
  }
}

type SameSite = 'lax' | 'strict' | 'none'

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

/** A count of the hub's limits (0 or more, whole; anything else: the default). */
const limit = (doc: string, fallback: number, defaultText?: string) =>
  option.number({ default: fallback, defaultText, doc, resolve: count })
const nullableText = (doc: string, defaultText: string) =>
  option<string | null>({ type: 'string | null', default: null, defaultText, doc, resolve: (given) => text(given) })

export const realtimeOptions = defineOptions(
  {
    mercure: group(
      'The Mercure hub that receives every change of real-time types ([real-time](realtime.md)). Default: off.',
      {
        url: option<string | null>({
          type: 'string | null',
          default: null,
          defaultText: 'unset: publishing is off',
          doc: "The hub's publish URL, as the service reaches it (MERCURE_URL).",
          resolve: (given) => absoluteUrl(text(given), 'url'),
        }),
        publicUrl: nullableText(
          'The hub\'s subscribe URL, as browsers reach it (MERCURE_PUBLIC_URL); announced in `Link: <...>; rel="mercure"`. ' +
            "The embedded hub's: `/.well-known/mercure` on Payload's serverURL, else on the request's origin.",
          '`url`',
        ),
        jwtSecret: nullableText(
          'The HMAC secret (HS256) of publisher and subscriber JWTs (MERCURE_JWT_SECRET). Required with `url`; the ' +
            "embedded hub, when it is unset, derives its own from Payload's secret.",
          'unset',
        ),
        topicBase: option<string | null>({
          type: 'string | null',
          default: null,
          defaultText: "Payload's serverURL",
          doc: 'Base of the absolute IRIs used as topics (`https://example.com`).',
          resolve: (given) => text(given)?.replace(/\/+$/, '') ?? null,
        }),
        coreResources: option.boolean({
          default: true,
          doc: 'Publish changes of the core resources too (layouts, pages, routes, component groups and positions).',
        }),
        cookie: group('The subscriber cookie set for signed-in admins, so they receive private (draft) updates.', {
          name: option.string({
            default: 'mercureAuthorization',
            doc: 'Its name.',
            resolve: (given, fallback) => text(given) ?? fallback,
          }),
          // Checked in the group's finish (below), after jwtSecret, as it always was.
          sameSite: option<SameSite>({ type: "'lax' | 'strict' | 'none'", default: 'lax', doc: 'Its SameSite.' }),
          domain: nullableText('Its Domain attribute.', 'none'),
        }),
        subscriberTtl: option.number({
          default: 600,
          doc:
            'Seconds the subscriber JWT (the cookie) lives at most; it never outlives the session JWT it was issued ' +
            'with, and every JSON-LD response to the signed-in admin (login and refresh included) issues a fresh ' +
            'one. A real hub ends a stream when its JWT expires, so this bounds how long a stream outlives a logout there.',
          resolve: (given, fallback) => Math.max(1, count(given, fallback)),
        }),
        retries: limit('Attempts per update after the first one failed (the hub is down or answers 5xx).', 2),
        retryDelay: limit('Delay before the first retry, in ms; doubled for each next one.', 250),
        timeout: limit('Time allowed for one publish request, in ms.', 5000),
        embedded: option.boolean({
          default: false,
          doc:
            "Without `url`: serve a hub in this process at `/.well-known/mercure` (the Express app of 'payload-cwa/express', " +
            'once `startEmbeddedHub` ran). One instance only: the start refuses it when another instance on the ' +
            'database runs one, or with read replicas (the reference deployment: MERCURE_EMBEDDED, on outside production).',
          resolve: (given) => given === true,
        }),
        hub: group('Limits of the embedded hub ([the embedded hub](realtime.md#the-embedded-hub)).', {
          maxSubscribers: limit('Open subscriptions at most; one more is answered 503.', 1000),
          history: limit('Updates kept for `Last-Event-ID` replays (the oldest goes first).', 1000),
          maxBufferedBytes: limit(
            'Bytes a subscriber may leave unread before it is disconnected (a slow consumer must not grow the ' +
              "process's memory); also the largest update the hub takes.",
            1024 * 1024,
            '1048576 (1 MiB)',
          ),
          heartbeat: limit(
            'Milliseconds between heartbeats (an SSE comment that keeps proxies from closing an idle stream); 0: none.',
            15_000,
          ),
          maxSubscribersPerClient: limit(
            "Open subscriptions per client at most (the JWT's subject when the subscriber has one, else its address " +
              'as `trust proxy` / TRUST_PROXY determines it, as the login throttle does); one more is answered 429 ' +
              'with Retry-After, so that one client cannot take every place.',
            50,
          ),
          maxSelectors: limit('Topic selectors (`topic` parameters) per subscription at most; more is a 400.', 20),
          maxSelectorLength: limit(
            "Characters per topic selector at most; longer is a 400 (a selector's matching cost grows with it).",
            512,
          ),
        }),
      },
    ),
  },
  // The checks across options, in the order they always ran: the secret a hub URL needs, the cookie's SameSite,
  // then the subscribe URL (default: the publish URL).
  ({ mercure }) => {
    if (mercure.url && !mercure.jwtSecret)
      throw new Error(
        'cwa options: mercure.jwtSecret (MERCURE_JWT_SECRET) is required when mercure.url (MERCURE_URL) is set',
      )
    if (!['lax', 'strict', 'none'].includes(mercure.cookie.sameSite))
      throw new Error(
        `cwa options: mercure.cookie.sameSite must be lax, strict or none (got ${JSON.stringify(mercure.cookie.sameSite)})`,
      )
    return { mercure: { ...mercure, publicUrl: absoluteUrl(mercure.publicUrl, 'publicUrl') ?? mercure.url } }
  },
)

type Declared = typeof realtimeOptions
export type ResolvedMercure = OptionsResolved<Declared>['mercure']
export type HubLimits = ResolvedMercure['hub']

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof realtimeOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof realtimeOptions> {}
}

import { readFileSync } from 'node:fs'
import { checkOptionKeys, type CwaPluginOptions } from 'payload-cwa'
import { siteFormTypes } from '../../collections/forms'
import { deepMerge } from './deepMerge'
import { siteStorage } from './storage'

/**
 * MERCURE_EMBEDDED: `1` or `0`; unset, on outside production, so that live
 * updates work out of the box in development. In production a real hub
 * (MERCURE_URL) is the rule: the embedded one serves one instance only.
 */
function embeddedHub(env: Record<string, string | undefined>): boolean {
  const value = env.MERCURE_EMBEDDED?.trim()
  if (value === undefined || value === '') return env.NODE_ENV !== 'production'
  if (value === '1' || value === '0') return value === '1'
  throw new Error(`MERCURE_EMBEDDED must be 1 or 0 (got ${JSON.stringify(value)})`)
}

/**
 * Plugin options of the reference deployment: its defaults, then the JSON
 * object of CWA_CONFIG_FILE deep-merged over them. A key of the file the
 * plugin does not know stops the start (the message names the file, the
 * key's full path and the closest known key).
 */
export function siteOptions(env: Record<string, string | undefined> = process.env): CwaPluginOptions {
  const defaults: CwaPluginOptions = {
    apiPrefix: env.API_PREFIX ?? '/_api',
    websiteName: 'CWA Reference Site',
    users: { allowRegistration: false },
    forms: { types: siteFormTypes },
    // The website at / is the front end: "View on site" and Live Preview open it on the admin's own origin, Live
    // Preview through a one-minute link to /_preview, which shows the drafts with the editor's rights.
    frontEndUrl: '/',
    previewPath: '/_preview',
    // Real-time updates: to the hub at MERCURE_URL, else to the embedded hub (docs/realtime.md).
    mercure: {
      url: env.MERCURE_URL ?? null,
      publicUrl: env.MERCURE_PUBLIC_URL ?? null,
      jwtSecret: env.MERCURE_JWT_SECRET ?? null,
      embedded: embeddedHub(env),
    },
    // The shared HTTP cache's purger: none unless CACHE_PURGER says varnish (then VARNISH_URL and SERVER_URL are required);
    // a front end's revalidation route beside it (CWA_REVALIDATE_URL, signed with CWA_REVALIDATE_SECRET).
    httpCache: {
      purger: (env.CACHE_PURGER ?? 'none') as 'none' | 'varnish',
      varnishUrl: env.VARNISH_URL ?? null,
      revalidateUrl: env.CWA_REVALIDATE_URL ?? null,
      revalidateSecret: env.CWA_REVALIDATE_SECRET ?? null,
    },
    uploads: { storage: siteStorage(env) },
    // With DATABASE_REPLICA_URLS: how long a write waits for the replicas to apply it (default 5000 ms).
    ...(env.DATABASE_REPLICA_WAIT_MS ? { replicaWaitMs: Number(env.DATABASE_REPLICA_WAIT_MS) } : {}),
  }
  const file = env.CWA_CONFIG_FILE
  if (!file) return defaults
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(`CWA_CONFIG_FILE ${file} could not be read as JSON: ${(error as Error).message}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`CWA_CONFIG_FILE ${file} must hold a JSON object`)
  }
  // A feature is code (its hooks, its handlers): JSON can only name one, which would then do nothing.
  if ('features' in parsed) {
    throw new Error(
      `CWA_CONFIG_FILE ${file}: features cannot be given in JSON (a feature is TypeScript: add it in payload.config.ts, cwaPlugin({ features: [...] }))`,
    )
  }
  checkOptionKeys(parsed, `CWA_CONFIG_FILE ${file}`)
  return deepMerge(defaults as Record<string, unknown>, parsed as Record<string, unknown>) as CwaPluginOptions
}

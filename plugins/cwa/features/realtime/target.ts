import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import { embeddedHubOf, HUB_PATH } from './hub/embedded.js'
import type { MercureHub } from './hub/hub.js'

/** Where the updates go: the hub at `mercure.url` (over HTTP), or the embedded hub of this process (a call). */
export type PublishTarget = { kind: 'remote'; url: string; jwtSecret: string } | { kind: 'embedded'; hub: MercureHub }

/** The hub that takes this Payload's updates; null: real-time publishing is off. */
export function publishTarget(payload: Payload): PublishTarget | null {
  const mercure = getOptions(payload.config).mercure
  if (mercure.url && mercure.jwtSecret) return { kind: 'remote', url: mercure.url, jwtSecret: mercure.jwtSecret }
  const embedded = embeddedHubOf(payload)
  return embedded ? { kind: 'embedded', hub: embedded.hub } : null
}

const API_DOCUMENTATION = /<([^>]+)>;\s*rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"/

/**
 * The origin the response announced its API documentation on (Payload's
 * serverURL, else the request's own): the embedded hub is served beside the
 * API, on the same origin.
 */
function announcedOrigin(payload: Payload, headers: Headers): string | null {
  if (payload.config.serverURL) return payload.config.serverURL.replace(/\/+$/, '')
  const link = API_DOCUMENTATION.exec(headers.get('link') ?? '')
  try {
    return link ? new URL(link[1]!).origin : null
  } catch {
    return null
  }
}

/** The hub a JSON-LD response announces (`Link: <publicUrl>; rel="mercure"`) and the secret of the subscriber cookie. */
export function announcedHub(payload: Payload, headers: Headers): { publicUrl: string; jwtSecret: string } | null {
  const mercure = getOptions(payload.config).mercure
  if (mercure.url)
    return mercure.publicUrl && mercure.jwtSecret
      ? { publicUrl: mercure.publicUrl, jwtSecret: mercure.jwtSecret }
      : null
  const embedded = embeddedHubOf(payload)
  if (!embedded) return null
  const origin = announcedOrigin(payload, headers)
  const publicUrl = mercure.publicUrl ?? (origin ? `${origin}${HUB_PATH}` : null)
  return publicUrl ? { publicUrl, jwtSecret: embedded.secret } : null
}

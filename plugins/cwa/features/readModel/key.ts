import { createHash } from 'node:crypto'
import type { Payload } from 'payload'
import { getOptions, getRegistry } from '../../core/registry.js'
import type { StoredReadRequest } from '../../hydra/extension.js'

/**
 * What an anonymous answer depends on besides the data: the instance-wide
 * settings (every resolved option, the compatibility profile included, and
 * the resources served), fingerprinted once per process. Instances with
 * other settings (a rolling deploy changing them) keep answers apart.
 */
const fingerprints = new WeakMap<Payload, string>()

function fingerprintOf(payload: Payload): string {
  let found = fingerprints.get(payload)
  if (!found) {
    const settings = JSON.stringify(
      {
        options: getOptions(payload.config),
        resources: getRegistry(payload.config)
          .all()
          .map((resource) => resource.collectionIri),
        serverURL: payload.config.serverURL ?? '',
      },
      // A function option (a route generator, a security expression) by its source.
      (_key, value: unknown) => (typeof value === 'function' ? String(value) : value),
    )
    found = createHash('sha256').update(settings).digest('hex')
    fingerprints.set(payload, found)
  }
  return found
}

/**
 * The key of an anonymous read: the settings, the path under the API
 * prefix and the query as sent, the `path` request header (dynamic
 * positions resolve it), and the request's origin when the site has no
 * SERVER_URL (the Link header and absolute URLs are built from it).
 */
export function readKey(request: StoredReadRequest): string {
  const { payload } = request
  const parts = [
    fingerprintOf(payload),
    `${request.path}${request.url.search}`,
    request.headers.get('path') ?? '',
    payload.config.serverURL ? '' : request.url.origin,
  ]
  return createHash('sha256').update(parts.join('\n')).digest('base64url')
}

import { getOptions } from '../../core/registry.js'
import { outputProfiles } from '../extensions/formatHooks.js'
import type { HydraExtension } from '../extension.js'
import { type ProfileScope, stringsUnder, writeThrough } from '../profile.js'

/**
 * The last step of every JSON answer, errors and hub updates included: the
 * body written as the profiles serve it (compat: routes by path, `hydra:`
 * keys...), while it is written. Without a profile the body is sent as it is.
 *
 * `apiPaths` are the strings under the API prefix the format step met
 * (format.ts); a body it did not format (an error, a hub update's `{"@id"}`)
 * is looked through for them here. Each profile loads what it needs for
 * them once (one query), then writes the body.
 */
export async function asServed<T>(
  extensions: readonly HydraExtension[],
  scope: ProfileScope,
  json: T,
  apiPaths?: ReadonlySet<string>,
): Promise<T> {
  const profiles = outputProfiles(extensions, scope)
  if (profiles.length === 0) return json
  const prefix = getOptions(scope.payload.config).apiPrefix
  let out: unknown = json
  let strings = apiPaths
  for (const profile of profiles) {
    await profile.prepare?.(strings ?? stringsUnder(prefix, out))
    out = writeThrough(profile, out)
    // A later profile looks at what the earlier one wrote.
    strings = undefined
  }
  return out as T
}

import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions } from '../../core/options.js'

/**
 * Compatibility profiles: the API as a given front end expects it, with
 * the contract's defaults unchanged when no profile is chosen.
 */
export type CompatProfile = 'cwa-nuxt'

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    /**
     * `'cwa-nuxt'`: the CWA Nuxt module's expectations (hydra:-prefixed
     * collection and error keys, path-shaped route IRIs, GET /logout,
     * /.jsonld, routes_manifest, {route}/redirects, no collection filters on
     * item requests). Default null (the contract as written).
     */
    compat?: CompatProfile | null
    /** With `compat`: leave the API prefix out of every IRI served (the module's `main` branch). Default false. */
    compatIrisWithoutPrefix?: boolean
  }
  interface ResolvedCwaOptions {
    compat: CompatProfile | null
    compatIrisWithoutPrefix: boolean
  }
}

export const compatOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'compat' | 'compatIrisWithoutPrefix'>> = {
  compat: true,
  compatIrisWithoutPrefix: true,
}

export function resolveCompatOptions(options: CwaPluginOptions): {
  compat: CompatProfile | null
  compatIrisWithoutPrefix: boolean
} {
  const compat = options.compat ?? null
  if (compat !== null && compat !== 'cwa-nuxt')
    throw new Error(`cwa options: compat must be 'cwa-nuxt' or null, not ${JSON.stringify(compat)}.`)
  const withoutPrefix = options.compatIrisWithoutPrefix ?? false
  if (typeof withoutPrefix !== 'boolean') throw new Error('cwa options: compatIrisWithoutPrefix must be a boolean.')
  if (withoutPrefix && compat === null) throw new Error('cwa options: compatIrisWithoutPrefix needs compat to be set.')
  return { compat, compatIrisWithoutPrefix: withoutPrefix }
}

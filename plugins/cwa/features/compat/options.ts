import { defineOptions, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/**
 * Compatibility profiles: the API as a given front end expects it, with
 * the contract's defaults unchanged when no profile is chosen. Declared
 * once (core/defineOptions.ts).
 */
export type CompatProfile = 'cwa-nuxt'

export const compatOptions = defineOptions(
  {
    compat: option<CompatProfile | null>({
      type: "'cwa-nuxt' | null",
      default: null,
      doc:
        "`'cwa-nuxt'`: the CWA Nuxt module's expectations (hydra:-prefixed collection and error keys, path-shaped " +
        'route IRIs, GET /logout, /.jsonld, routes_manifest, {route}/redirects, no collection filters on item ' +
        'requests); null: the contract as written ([front ends](front-ends.md#the-compat-cwa-nuxt-profile)).',
      resolve: (given, fallback) => {
        const compat = given ?? fallback
        if (compat !== null && compat !== 'cwa-nuxt')
          throw new Error(`cwa options: compat must be 'cwa-nuxt' or null, not ${JSON.stringify(compat)}.`)
        return compat
      },
    }),
    compatIrisWithoutPrefix: option.boolean({
      default: false,
      doc: "With `compat`: leave the API prefix out of every IRI served (the module's `main` branch).",
      resolve: (given, fallback) => {
        const withoutPrefix = given ?? fallback
        if (typeof withoutPrefix !== 'boolean')
          throw new Error('cwa options: compatIrisWithoutPrefix must be a boolean.')
        return withoutPrefix
      },
    }),
  },
  (resolved) => {
    if (resolved.compatIrisWithoutPrefix && resolved.compat === null)
      throw new Error('cwa options: compatIrisWithoutPrefix needs compat to be set.')
    return resolved
  },
)

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof compatOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof compatOptions> {}
}

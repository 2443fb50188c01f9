import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../core/defineOptions.js'

/** The `session` options: the JWT and refresh cookies and their lifetimes, declared once (core/defineOptions.ts). */

type SameSite = 'lax' | 'strict' | 'none'

export const sessionOptions = defineOptions(
  {
    session: group('The session cookies and their lifetimes ([sessions](api.md#sessions)).', {
      cookieName: option.string({
        default: 'api_component',
        doc: 'Name of the JWT cookie, used by the setter, the extractor and the refresh cookie (`<cookieName>_refresh`).',
      }),
      sameSite: option<SameSite>({
        type: "'lax' | 'strict' | 'none'",
        default: 'lax',
        doc: 'SameSite attribute of the session cookies.',
      }),
      tokenTtl: option.number({ default: 3600, doc: 'JWT lifetime in seconds.' }),
      refreshTtl: option.number({ default: 604800, doc: 'Refresh token and cookie lifetime in seconds (a week).' }),
    }),
  },
  ({ session }) => ({
    session: {
      cookieName: session.cookieName,
      /** `<cookieName>_refresh`. */
      refreshCookieName: `${session.cookieName}_refresh`,
      sameSite: session.sameSite,
      tokenTtl: session.tokenTtl,
      refreshTtl: session.refreshTtl,
    },
  }),
)

declare module '../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof sessionOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof sessionOptions> {}
}

import type { OptionKeys } from '../core/optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions } from '../core/options.js'

/** The `session` options: the JWT and refresh cookies and their lifetimes, with every default here. */
export interface SessionOptions {
  /** Name of the JWT cookie, used by the setter, the extractor and the refresh cookie settings. Default `api_component`. */
  cookieName?: string
  /** SameSite attribute of the session cookies. Default `lax`. */
  sameSite?: 'lax' | 'strict' | 'none'
  /** JWT lifetime in seconds. Default 3600. */
  tokenTtl?: number
  /** Refresh token and cookie lifetime in seconds. Default 604800 (a week). */
  refreshTtl?: number
}

export interface ResolvedSessionOptions {
  cookieName: string
  /** `<cookieName>_refresh`. */
  refreshCookieName: string
  sameSite: 'lax' | 'strict' | 'none'
  tokenTtl: number
  refreshTtl: number
}

declare module '../core/options.js' {
  interface CwaPluginOptions {
    session?: SessionOptions
  }
  interface ResolvedCwaOptions {
    session: ResolvedSessionOptions
  }
}

export const sessionOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'session'>> = {
  session: { cookieName: true, sameSite: true, tokenTtl: true, refreshTtl: true },
}

export function resolveSessionOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, 'session'> {
  const cookieName = options.session?.cookieName ?? 'api_component'
  return {
    session: {
      cookieName,
      refreshCookieName: `${cookieName}_refresh`,
      sameSite: options.session?.sameSite ?? 'lax',
      tokenTtl: options.session?.tokenTtl ?? 3600,
      refreshTtl: options.session?.refreshTtl ?? 604800,
    },
  }
}

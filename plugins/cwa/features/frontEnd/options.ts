import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions } from '../../core/options.js'

/**
 * Options for front ends served from another origin (the CWA Nuxt module
 * on its own host): CORS.
 */

export interface CorsOptions {
  /**
   * Origins (`https://app.example`) whose pages may call the JSON-LD API
   * with credentials: anchored, case-insensitive regular expressions, as
   * `user.emailLinks.allowedOrigins` (`https://(www\\.)?example\\.com`).
   * They may also send writes (the cross-site write refusal lets them
   * through). Default: none.
   */
  allowedOrigins?: string[]
  /** `Access-Control-Max-Age` of preflight answers, in seconds. Default 3600. */
  maxAge?: number
}

export interface ResolvedCorsOptions {
  allowedOrigins: string[]
  maxAge: number
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    /** Cross-origin front ends (CORS). Default: none allowed. */
    cors?: CorsOptions
  }
  interface ResolvedCwaOptions {
    cors: ResolvedCorsOptions
  }
}

export const frontEndOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'cors'>> = {
  cors: { allowedOrigins: true, maxAge: true },
}

export function resolveFrontEndOptions(options: CwaPluginOptions): { cors: ResolvedCorsOptions } {
  const allowedOrigins = options.cors?.allowedOrigins ?? []
  if (!Array.isArray(allowedOrigins) || allowedOrigins.some((pattern) => typeof pattern !== 'string')) {
    throw new Error('cwa options: cors.allowedOrigins must be a list of regular expressions (strings).')
  }
  for (const pattern of allowedOrigins) {
    try {
      new RegExp(pattern)
    } catch (error) {
      throw new Error(
        `cwa options: cors.allowedOrigins holds an invalid regex ${JSON.stringify(pattern)}: ${(error as Error).message}`,
      )
    }
  }
  const maxAge = options.cors?.maxAge ?? 3600
  if (!Number.isInteger(maxAge) || maxAge < 0)
    throw new Error('cwa options: cors.maxAge must be a whole number of seconds (0 or more).')
  return { cors: { allowedOrigins, maxAge } }
}

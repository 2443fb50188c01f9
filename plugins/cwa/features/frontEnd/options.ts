import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/**
 * Options for front ends served from another origin (the CWA Nuxt module
 * on its own host): CORS. Declared once (core/defineOptions.ts).
 */

export const frontEndOptions = defineOptions({
  cors: group('Cross-origin front ends ([front ends › CORS](front-ends.md#cors)). Default: none allowed.', {
    allowedOrigins: option<string[]>({
      type: 'string[]',
      default: [],
      doc:
        'Origins (`https://app.example`) whose pages may call the JSON-LD API with credentials: anchored, ' +
        'case-insensitive regular expressions, as `user.emailLinks.allowedOrigins` (`https://(www\\\\.)?example\\\\.com`). ' +
        'They may also send writes (the cross-site write refusal lets them through).',
      resolve: (given, fallback) => {
        const allowedOrigins = given ?? fallback
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
        return allowedOrigins
      },
    }),
    maxAge: option.number({
      default: 3600,
      doc: '`Access-Control-Max-Age` of preflight answers, in seconds.',
      resolve: (given, fallback) => {
        const maxAge = given ?? fallback
        if (!Number.isInteger(maxAge) || maxAge < 0)
          throw new Error('cwa options: cors.maxAge must be a whole number of seconds (0 or more).')
        return maxAge
      },
    }),
  }),
})

export type ResolvedCorsOptions = OptionsResolved<typeof frontEndOptions>['cors']

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof frontEndOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof frontEndOptions> {}
}

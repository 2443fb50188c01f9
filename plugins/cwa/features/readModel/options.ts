import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/**
 * The read model: anonymous JSON-LD reads stored in PostgreSQL once
 * computed, served from there until a write changes what they were built
 * from (or a scheduled moment passes). Declared once (core/defineOptions.ts).
 */

/** A whole number from `min` to `max`, else the option's message (`what`: the rule as the message states it). */
const wholeNumber =
  (key: string, min: number, max: number, what: string) =>
  (given: number | undefined, fallback: number): number => {
    const value = given ?? fallback
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`cwa options: readModel.${key} must be ${what}, got ${JSON.stringify(value)}.`)
    return value
  }

export const readModelOptions = defineOptions({
  readModel: group('Anonymous reads stored in PostgreSQL and served from there ([read model](read-model.md)).', {
    enabled: option.boolean({
      default: true,
      doc: 'Store and serve anonymous reads. Every instance on a database must have the same value.',
      resolve: (given, fallback) => {
        const value = given ?? fallback
        if (typeof value !== 'boolean') throw new Error('cwa options: readModel.enabled must be a boolean.')
        return value
      },
    }),
    maxEntries: option.number({
      default: 20_000,
      doc: 'Stored answers at most; the least recently served go first.',
      resolve: wholeNumber('maxEntries', 100, 10_000_000, 'a whole number from 100 to 10000000'),
    }),
    maxBytes: option.number({
      default: 64 * 1024 * 1024,
      defaultText: '67108864 (64 MiB)',
      doc:
        'Bytes of stored bodies at most (what a few large answers weigh counts, not only how many there are); ' +
        'the least recently served go first, and an answer larger than this is not stored.',
      resolve: wholeNumber(
        'maxBytes',
        1024 * 1024,
        2 ** 40,
        'a whole number of bytes from 1048576 (1 MiB) to 1099511627776 (1 TiB)',
      ),
    }),
    admitVariantsAfter: option.number({
      default: 2,
      doc:
        'Misses of a variant read (a query string, or a `path` header) before its answer is stored: reads that ' +
        "come once (a cache-busting query) never fill the store and push the site's answers out. 1: at the first miss.",
      resolve: wholeNumber('admitVariantsAfter', 1, 10, 'a whole number from 1 to 10'),
    }),
  }),
})

export type ReadModelOptions = NonNullable<OptionsInput<typeof readModelOptions>['readModel']>

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof readModelOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof readModelOptions> {}
}

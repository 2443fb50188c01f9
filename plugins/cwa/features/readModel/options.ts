import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions } from '../../core/options.js'

/**
 * The read model: anonymous JSON-LD reads stored in PostgreSQL once
 * computed, served from there until a write changes what they were built
 * from (or a scheduled moment passes).
 */
export interface ReadModelOptions {
  /** Store and serve anonymous reads. Default true. */
  enabled?: boolean
  /** Stored answers at most; the least recently served go first. Default 20000. */
  maxEntries?: number
  /**
   * Bytes of stored bodies at most (what a few large answers weigh counts,
   * not only how many there are); the least recently served go first, and
   * an answer larger than this is not stored. Default 67108864 (64 MiB).
   */
  maxBytes?: number
  /**
   * Misses of a variant read (a query string, or a `path` header) before its
   * answer is stored: reads that come once (a cache-busting query) never
   * fill the store and push the site's answers out. 1: at the first miss.
   * Default 2.
   */
  admitVariantsAfter?: number
}

export interface ResolvedReadModel {
  enabled: boolean
  maxEntries: number
  maxBytes: number
  admitVariantsAfter: number
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    readModel?: ReadModelOptions
  }
  interface ResolvedCwaOptions {
    readModel: ResolvedReadModel
  }
}

export const readModelOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'readModel'>> = {
  readModel: { enabled: true, maxEntries: true, maxBytes: true, admitVariantsAfter: true },
}

export function resolveReadModelOptions(options: CwaPluginOptions): { readModel: ResolvedReadModel } {
  const enabled = options.readModel?.enabled ?? true
  if (typeof enabled !== 'boolean') throw new Error('cwa options: readModel.enabled must be a boolean.')
  const maxEntries = options.readModel?.maxEntries ?? 20_000
  if (!Number.isInteger(maxEntries) || maxEntries < 100 || maxEntries > 10_000_000)
    throw new Error(
      `cwa options: readModel.maxEntries must be a whole number from 100 to 10000000, got ${JSON.stringify(maxEntries)}.`,
    )
  const maxBytes = options.readModel?.maxBytes ?? 64 * 1024 * 1024
  if (!Number.isInteger(maxBytes) || maxBytes < 1024 * 1024 || maxBytes > 2 ** 40)
    throw new Error(
      `cwa options: readModel.maxBytes must be a whole number of bytes from 1048576 (1 MiB) to 1099511627776 (1 TiB), got ${JSON.stringify(maxBytes)}.`,
    )
  const admitVariantsAfter = options.readModel?.admitVariantsAfter ?? 2
  if (!Number.isInteger(admitVariantsAfter) || admitVariantsAfter < 1 || admitVariantsAfter > 10)
    throw new Error(
      `cwa options: readModel.admitVariantsAfter must be a whole number from 1 to 10, got ${JSON.stringify(admitVariantsAfter)}.`,
    )
  return { readModel: { enabled, maxEntries, maxBytes, admitVariantsAfter } }
}

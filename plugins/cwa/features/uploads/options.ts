import type { PayloadRequest } from 'payload'
import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'
import type { StorageAdapter } from './storage/adapter.js'
import type { S3StorageOptions } from './storage/s3.js'

/**
 * Options of the uploads feature, with every default here: the plugin option
 * `uploads` (storage aliases, image filters, limits) and the per-type
 * declaration `uploadable` (file fields) with `uploadFilters` (filters
 * computed per request).
 */

/** How a field's files are addressed in `_metadata.mediaObjects[].contentUrl`. */
export type UrlGenerator = 'api' | 'public' | 'temporary'

/** One file field of a type (contract: "Uploadable fields"). The key of `uploadable` is the transient property. */
export interface UploadableField {
  /** Alias of a registered storage adapter. Default `local`. */
  adapter?: string
  /** `api` (default), `public` or `temporary`; falls back to `api` when the adapter cannot. */
  urlGenerator?: UrlGenerator
  /** The stored-path property and column. Default `filename`; two fields of one type may not share it. */
  property?: string
  /** Path prefix inside the storage, prepended as is (include a trailing `/`). */
  prefix?: string | null
  /** Image filters (variants) generated at upload, by name (`uploads.filters`). */
  imagineFilters?: string[]
  /** Publishing needs a file (an upload in the request or a stored one). */
  requiredOnPublish?: boolean
  /** The violation message when publishing without a file; `{{ property }}` is the field name. */
  requiredOnPublishMessage?: string
  /** Largest file: bytes, or `5M` / `500K` / `1G` (binary units: 1M = 2^20 bytes). */
  maxSize?: number | string
  /** Largest image in pixels (width × height), checked from the header before decoding. Default 40 000 000; SVG exempt. */
  maxPixels?: number
}

/** A type's file fields: transient property name -> settings. */
export type UploadableDeclaration = Record<string, UploadableField>

/** Filters appended to a field's imagineFilters, per property and request (null outside a web request). */
export type DynamicFilters = (property: string, req: PayloadRequest | null) => string[]

declare module '../../core/types.js' {
  interface FeatureDeclarations {
    /** File fields (transient property -> settings); components only. */
    uploadable?: UploadableDeclaration
    /** Filters appended to every file field's imagineFilters (contract rule 3). */
    uploadFilters?: DynamicFilters
  }
}

/** An image variant: a resize and an output format (sharp). */
export interface ImageFilter {
  width: number
  height: number
  /** `inside` keeps the aspect ratio within the box; `cover` crops to fill it. Default `inside`. */
  fit?: 'inside' | 'cover'
  /** Output format; default the original's. */
  format?: 'webp' | 'jpeg' | 'png'
  /** Never enlarge a smaller image. Default true. */
  withoutEnlargement?: boolean
}

/** A storage alias: a built-in adapter by its name and settings, or an adapter object. */
export type StorageConfig =
  | {
      adapter: 'local'
      /** Default `./.data/uploads`. */ directory?: string
      /** Base URL the directory is served at (public URLs). */ publicUrl?: string
    }
  | ({ adapter: 's3' } & S3StorageOptions)
  | StorageAdapter

export const DEFAULT_FILTERS: Record<string, ImageFilter> = {
  thumbnail: { width: 300, height: 300, fit: 'inside', format: 'webp' },
  square: { width: 200, height: 200, fit: 'cover' },
}

export const MAX_REQUEST_BYTES = 21 * 1024 * 1024
export const DEFAULT_MAX_PIXELS = 40_000_000
export const TEMPORARY_URL_TTL = 3 * 24 * 3600

/** The `uploads` plugin option, declared once (core/defineOptions.ts). */
export const uploadsOptions = defineOptions({
  uploads: group('Storage aliases, image filters and limits of uploads ([uploads](uploads.md)).', {
    storage: option<Record<string, StorageConfig>>({
      type: 'Record<string, StorageConfig>',
      default: { local: { adapter: 'local' } },
      doc: 'Storage aliases. `local` (directory `./.data/uploads`) is always there unless redefined here.',
      resolve: (given, fallback) => ({ ...structuredClone(fallback), ...(given ?? {}) }),
    }),
    filters: option<Record<string, ImageFilter>>({
      type: 'Record<string, ImageFilter>',
      default: DEFAULT_FILTERS,
      defaultText: '`thumbnail` (inside 300×300, WebP) and `square` (200×200 cover)',
      doc: 'Image filters by name (added to the defaults, or redefining one).',
      resolve: (given, fallback) => ({ ...fallback, ...(given ?? {}) }),
    }),
    temporaryUrlTtlSeconds: option.number({
      default: TEMPORARY_URL_TTL,
      defaultText: '259200 (3 days)',
      doc: 'Lifetime of temporary URLs, seconds.',
    }),
    maxRequestBytes: option.number({
      default: MAX_REQUEST_BYTES,
      defaultText: '22020096 (21 MiB)',
      doc: 'Largest multipart upload request, bytes (the reference post_max_size 21M, binary).',
    }),
    stagingDirectory: option<string, string | null>({
      type: 'string',
      default: null,
      defaultText: 'the system temporary directory',
      doc: 'Where uploads wait until their transaction commits.',
    }),
  }),
})

export type UploadsPluginOptions = NonNullable<OptionsInput<typeof uploadsOptions>['uploads']>

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof uploadsOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof uploadsOptions> {}
}

/** A field with every default resolved. */
export interface ResolvedField {
  /** The transient property (multipart key, mediaObjects key, download route segment). */
  name: string
  adapter: string
  urlGenerator: UrlGenerator
  property: string
  prefix: string
  imagineFilters: string[]
  requiredOnPublish: boolean
  requiredOnPublishMessage: string
  maxSize: number | null
  maxPixels: number
}

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }

/** `5M` -> 5 MiB (as PHP and Symfony's File constraint with binary units read it). */
export function parseSize(value: number | string | undefined): number | null {
  if (value === undefined) return null
  if (typeof value === 'number') return value
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMG]?)i?B?\s*$/i.exec(value)
  if (!match) throw new Error(`cwa uploads: "${value}" is not a file size (e.g. 5M, 500K, 1048576)`)
  return Math.floor(Number(match[1]) * UNITS[match[2]!.toUpperCase()]!)
}

export const DEFAULT_REQUIRED_MESSAGE = 'A file is required to publish: upload {{ property }}.'

/** The fields of a type's declaration, resolved; throws on two fields sharing a stored-path property. */
export function resolveFields(shortName: string, declaration: UploadableDeclaration | undefined): ResolvedField[] {
  if (!declaration) return []
  const fields = Object.entries(declaration).map(([name, field]): ResolvedField => ({
    name,
    adapter: field.adapter ?? 'local',
    urlGenerator: field.urlGenerator ?? 'api',
    property: field.property ?? 'filename',
    prefix: field.prefix ?? '',
    imagineFilters: field.imagineFilters ?? [],
    requiredOnPublish: field.requiredOnPublish ?? false,
    requiredOnPublishMessage: field.requiredOnPublishMessage ?? DEFAULT_REQUIRED_MESSAGE,
    maxSize: parseSize(field.maxSize),
    maxPixels: field.maxPixels ?? DEFAULT_MAX_PIXELS,
  }))
  const seen = new Map<string, string>()
  for (const field of fields) {
    const other = seen.get(field.property)
    if (other)
      throw new Error(
        `cwa uploads: ${shortName}.${other} and ${shortName}.${field.name} both store their path in "${field.property}"; give each its own property`,
      )
    if (field.property === field.name)
      throw new Error(`cwa uploads: ${shortName}.${field.name} cannot store its path in a property of the same name`)
    if (field.prefix && !isSafePrefix(field.prefix))
      throw new Error(`cwa uploads: ${shortName}.${field.name} has an unsafe prefix "${field.prefix}"`)
    seen.set(field.property, field.name)
  }
  return fields
}

function isSafePrefix(prefix: string): boolean {
  return (
    !prefix.startsWith('/') &&
    !prefix.split('/').some((part) => part === '..' || part === '.') &&
    !prefix.includes('\\')
  )
}

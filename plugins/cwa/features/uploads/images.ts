import sharp, { type FormatEnum } from 'sharp'
import type { ImageFilter } from './options.js'

/** Bytes of decoded memory sharp may use for one image's pixel cache; variants are made one at a time. */
sharp.cache({ memory: 64, items: 20, files: 0 })
sharp.concurrency(1)

export interface ImageSize {
  width: number
  height: number
}

/**
 * Width and height from the image's header only (no pixel is decoded), so a
 * decompression bomb is refused before it costs memory. Null when sharp
 * cannot read the header (not an image after all, or a broken one).
 */
export async function headerSize(file: string): Promise<ImageSize | null> {
  try {
    const meta = await sharp(file, { limitInputPixels: false }).metadata()
    if (!meta.width || !meta.height) return null
    // The first frame of an animation: pageHeight, when sharp reports it.
    return { width: meta.width, height: meta.pageHeight ?? meta.height }
  } catch {
    return null
  }
}

/**
 * Decodes the whole image once (to a 1-pixel output) so that a truncated or
 * corrupt file is refused at upload, not on the first read. sharp's pixel
 * guard stays on (`limitInputPixels`).
 */
export async function assertDecodes(file: string, maxPixels: number): Promise<boolean> {
  try {
    await sharp(file, { limitInputPixels: maxPixels, failOn: 'truncated' }).resize(1, 1).raw().toBuffer()
    return true
  } catch {
    return false
  }
}

export interface VariantOutput {
  width: number
  height: number
  size: number
  mimeType: string
  ext: string
}

const FORMATS: Record<string, { mime: string; ext: string }> = {
  webp: { mime: 'image/webp', ext: 'webp' },
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  gif: { mime: 'image/gif', ext: 'gif' },
  avif: { mime: 'image/avif', ext: 'avif' },
  tiff: { mime: 'image/tiff', ext: 'tif' },
}

/** The output format of a filter for an original of this type. */
export function variantFormat(
  filter: ImageFilter,
  originalMime: string,
): { format: keyof FormatEnum; mime: string; ext: string } {
  const name = filter.format ?? Object.entries(FORMATS).find(([, f]) => f.mime === originalMime)?.[0] ?? 'png'
  return { format: name as keyof FormatEnum, ...FORMATS[name]! }
}

/** One variant, written to `target` (a staging file). */
export async function makeVariant(
  source: string,
  target: string,
  filter: ImageFilter,
  originalMime: string,
  maxPixels: number,
): Promise<VariantOutput> {
  const { format, mime, ext } = variantFormat(filter, originalMime)
  const info = await sharp(source, { limitInputPixels: maxPixels, failOn: 'truncated' })
    .rotate()
    .resize({
      width: filter.width,
      height: filter.height,
      fit: filter.fit ?? 'inside',
      withoutEnlargement: filter.withoutEnlargement ?? true,
    })
    .toFormat(format as keyof FormatEnum)
    .toFile(target)
  return { width: info.width, height: info.height, size: info.size, mimeType: mime, ext }
}

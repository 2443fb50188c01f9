/**
 * The contract's browser resize (Limits: admin uploads): an image over 2560
 * px on its longest edge or over 20 megapixels is scaled down in the browser
 * before upload, keeping its aspect ratio, to fit both.
 */
export const MAX_EDGE = 2560
export const MAX_PIXELS = 20_000_000

/** The size to scale an image to, or null when it is within both limits. */
export function resizeTarget(
  width: number,
  height: number,
  limits = { maxEdge: MAX_EDGE, maxPixels: MAX_PIXELS },
): { width: number; height: number } | null {
  if (!(width > 0 && height > 0)) return null
  const scale = Math.min(1, limits.maxEdge / Math.max(width, height), Math.sqrt(limits.maxPixels / (width * height)))
  if (scale >= 1) return null
  // Floors keep both limits: rounding up could step one pixel over either.
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) }
}

/** Formats a canvas can write; anything else is sent as it is (SVG, GIF animations, non-images). */
const CANVAS_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp'])

/**
 * Scales `file` down with a canvas when it is over the limits; returns the
 * file untouched otherwise (or when the browser cannot decode it: the server
 * then applies its own constraints).
 */
export async function resizeForUpload(
  file: File,
): Promise<{ file: File; resized: { from: [number, number]; to: [number, number] } | null }> {
  if (!CANVAS_TYPES.has(file.type)) return { file, resized: null }
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    return { file, resized: null }
  }
  const target = resizeTarget(bitmap.width, bitmap.height)
  if (!target) {
    bitmap.close()
    return { file, resized: null }
  }
  const canvas = document.createElement('canvas')
  canvas.width = target.width
  canvas.height = target.height
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, target.width, target.height)
  const from: [number, number] = [bitmap.width, bitmap.height]
  bitmap.close()
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, file.type, 0.9))
  if (!blob) return { file, resized: null }
  return {
    file: new File([blob], file.name, { type: file.type, lastModified: file.lastModified }),
    resized: { from, to: [target.width, target.height] },
  }
}

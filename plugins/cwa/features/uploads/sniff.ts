import { open } from 'node:fs/promises'
import { fileTypeFromFile } from 'file-type'

/** What the bytes of a file say it is: never the client's name or Content-Type. */
export interface SniffedType {
  mimeType: string
  /** The extension a stored name gets (from the type, not from the client). */
  ext: string
}

/** Raster images sharp reads and variants are made of (SVG is an image, but not raster: contract rule 1). */
const RASTER = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'])

export const isRaster = (mimeType: string) => RASTER.has(mimeType)

/** The file's type from its magic bytes; SVG (text) from its root element; anything else unknown. */
export async function sniffFile(file: string): Promise<SniffedType> {
  const found = await fileTypeFromFile(file).catch(() => undefined)
  // file-type calls any XML application/xml: an SVG is told by its root element.
  if ((!found || found.mime === 'application/xml') && (await looksLikeSvg(file)))
    return { mimeType: 'image/svg+xml', ext: 'svg' }
  if (found) return { mimeType: found.mime, ext: found.ext }
  return { mimeType: 'application/octet-stream', ext: 'bin' }
}

/** An XML text whose root element is `<svg`: prolog, comments and doctype before it are skipped. */
async function looksLikeSvg(file: string): Promise<boolean> {
  const handle = await open(file, 'r')
  try {
    const buffer = new Uint8Array(4096)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    const text = Buffer.from(buffer.subarray(0, bytesRead))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
    const stripped = text
      .replace(/<\?xml[\s\S]*?\?>/, '')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<!DOCTYPE[^>]*>/i, '')
      .trimStart()
    return /^<svg[\s>]/i.test(stripped)
  } finally {
    await handle.close()
  }
}

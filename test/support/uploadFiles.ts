/**
 * Real files for the upload tests, made by sharp (PNG, JPEG, WebP, GIF) or
 * written byte by byte (SVG, PDF, a truncated image, a pixel bomb).
 */
import sharp from 'sharp'

export const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#c03020' } })
    .png()
    .toBuffer()
export const jpeg = (width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: '#2060c0' } })
    .jpeg({ quality: 80 })
    .toBuffer()
export const webp = (width = 120, height = 90) =>
  sharp({ create: { width, height, channels: 3, background: '#20c060' } })
    .webp()
    .toBuffer()
export const gif = (width = 50, height = 40) =>
  sharp({ create: { width, height, channels: 3, background: '#808000' } })
    .gif()
    .toBuffer()

export const svgWithScript = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10" fill="red"/></svg>\n',
)

/** A one-page PDF (the smallest a reader opens). */
export const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

/** A real PNG cut in half: the header reads, the pixels do not. */
export async function truncatedPng(): Promise<Buffer> {
  const full = await sharp({
    create: {
      width: 300,
      height: 300,
      channels: 3,
      background: '#123456',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png({ compressionLevel: 0 })
    .toBuffer()
  return full.subarray(0, Math.floor(full.length / 2))
}

/** Byte-for-byte equality. */
export const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Buffer.from(a as never).toString('base64') === Buffer.from(b as never).toString('base64')

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** A small PNG whose header declares width × height (a decompression bomb as far as the header goes). */
export async function pixelBomb(width = 20_000, height = 20_000): Promise<Buffer> {
  const bytes = Buffer.from(await png(1, 1))
  // IHDR starts at byte 8: length (4), type (4), width (4), height (4), ...; its CRC covers type and data (17 bytes).
  bytes.writeUInt32BE(width, 16)
  bytes.writeUInt32BE(height, 20)
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29)
  return bytes
}

export interface Part {
  name: string
  filename: string
  bytes: Buffer
  type?: string
}

/** A multipart body as a browser sends it. */
export function formData(parts: Part[]): FormData {
  const form = new FormData()
  for (const part of parts)
    form.append(
      part.name,
      new Blob([new Uint8Array(part.bytes)], { type: part.type ?? 'application/octet-stream' }),
      part.filename,
    )
  return form
}

export const dataUri = (bytes: Buffer, type: string) => `data:${type};base64,${bytes.toString('base64')}`

/**
 * npm run bench, uploads: a 12-megapixel JPEG (4000×3000) uploaded as
 * multipart to an Image, which makes its `thumbnail` variant in the same
 * request. Reports the request's time and the process's resident memory:
 * its peak while the uploads ran (sampled every 5 ms) and how far that is
 * above the resident memory just before.
 */
import sharp from 'sharp'

export interface UploadBench {
  megapixels: number
  fileBytes: number
  runs: number
  medianMs: number
  maxMs: number
  rssBeforeMiB: number
  rssPeakMiB: number
}

/** A photo-like 12 MP JPEG: smooth colour noise (a flat image would be unrealistically small). */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const small = await sharp({
    create: {
      width: 200,
      height: 150,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 70 },
    },
  })
    .png()
    .toBuffer()
  return sharp(small).resize(4000, 3000, { kernel: 'cubic' }).jpeg({ quality: 85 }).toBuffer()
}

export async function measureUpload(base: string, headers: Record<string, string>, runs = 3): Promise<UploadBench> {
  const jpeg = await twelveMegapixelJpeg()
  const times: number[] = []
  const mib = (bytes: number) => Math.round(bytes / 1024 / 1024)
  globalThis.gc?.()
  const before = process.memoryUsage.rss()
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 5)
  try {
    for (let i = 0; i < runs; i++) {
      const created = await fetch(`${base}/_api/component/images`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/ld+json' },
        body: '{}',
      })
      const iri = ((await created.json()) as { '@id': string })['@id']
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo-12mp.jpg')
      const started = performance.now()
      const response = await fetch(`${base}${iri}/upload`, { method: 'POST', headers, body: form })
      const body = (await response.json()) as {
        _metadata?: { mediaObjects?: { file?: Array<{ width: number; imagineFilter: string | null }> } }
      }
      times.push(performance.now() - started)
      const objects = body._metadata?.mediaObjects?.file ?? []
      if (response.status !== 200 || objects[0]?.width !== 4000 || objects.length < 2)
        throw new Error(`12 MP upload answered ${response.status}`)
    }
  } finally {
    clearInterval(sampler)
  }
  times.sort((a, b) => a - b)
  return {
    megapixels: 12,
    fileBytes: jpeg.length,
    runs,
    medianMs: Math.round(times[Math.floor(times.length / 2)]!),
    maxMs: Math.round(times[times.length - 1]!),
    rssBeforeMiB: mib(before),
    rssPeakMiB: mib(peak),
  }
}

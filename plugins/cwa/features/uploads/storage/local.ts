import { createReadStream } from 'node:fs'
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { StorageAdapter } from './adapter.js'
import { safeStoredPath } from './adapter.js'

/**
 * Files under a directory of the local disk (default `./.data/uploads`).
 * Public URLs only when `publicUrl` says where the directory is served.
 */
export function localStorage({
  directory = './.data/uploads',
  publicUrl,
}: { directory?: string; publicUrl?: string } = {}): StorageAdapter {
  const root = path.resolve(directory)
  /** The absolute path of a stored path, checked again here: it must stay under the root. */
  const resolve = (stored: string): string => {
    const safe = safeStoredPath(stored)
    const full = safe ? path.resolve(root, safe) : null
    if (!full || !full.startsWith(root + path.sep))
      throw new Error(`Refused an unsafe stored path: ${JSON.stringify(stored)}`)
    return full
  }
  return {
    kind: 'local',
    async put(stored, sourceFile) {
      const target = resolve(stored)
      await mkdir(path.dirname(target), { recursive: true })
      try {
        await rename(sourceFile, target)
      } catch {
        // Another file system (the staging directory elsewhere): copy instead.
        await copyFile(sourceFile, target)
      }
    },
    async get(stored) {
      const full = resolve(stored)
      const info = await stat(full).catch(() => null)
      if (!info?.isFile()) return null
      return { stream: createReadStream(full), size: info.size }
    },
    async exists(stored) {
      return (await stat(resolve(stored)).catch(() => null))?.isFile() ?? false
    },
    async delete(stored) {
      await rm(resolve(stored), { force: true })
    },
    async copy(from, to) {
      const target = resolve(to)
      await mkdir(path.dirname(target), { recursive: true })
      await copyFile(resolve(from), target)
    },
    publicUrl: (stored) =>
      publicUrl ? `${publicUrl.replace(/\/$/, '')}/${stored.split('/').map(encodeURIComponent).join('/')}` : null,
  }
}

import { randomBytes, randomUUID } from 'node:crypto'

/**
 * Stored names (contract rule 4): `<original-stem>-<token>.<ext>`, the stem
 * cleaned of anything but letters, digits, `-` and `_` (so a client's
 * `../../etc/passwd` is `passwd`), the extension from the sniffed type.
 * Data-URI uploads have no name: `<uuid>.<ext>`.
 */
export function storedName(prefix: string, clientName: string | null, ext: string): string {
  if (clientName === null) return `${prefix}${randomUUID()}.${ext}`
  const base = clientName.split(/[\\/]/).pop() ?? ''
  const stem =
    base
      .replace(/\.[^.]*$/, '')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64) || 'file'
  return `${prefix}${stem}-${randomBytes(6).toString('hex')}.${ext}`
}

/** A variant beside its original: `photo-ab12cd.thumbnail.webp` (`.thumbnail-2` for a filter listed twice). */
export function variantName(original: string, filter: string, occurrence: number, ext: string): string {
  const stem = original.replace(/\.[^./]*$/, '')
  return `${stem}.${filter}${occurrence > 1 ? `-${occurrence}` : ''}.${ext}`
}

/** A second copy of a stored file (a draft twin's), beside it with the same prefix and naming. */
export function copyName(original: string): string {
  const slash = original.lastIndexOf('/')
  const dir = original.slice(0, slash + 1)
  const file = original.slice(slash + 1)
  const ext = /\.([^.]+)$/.exec(file)?.[1] ?? 'bin'
  // Drop the old token: the copy has its own.
  const stem = file.replace(/\.[^.]*$/, '').replace(/-[0-9a-f]{12}$/, '')
  return storedName(dir, `${stem}.${ext}`, ext)
}

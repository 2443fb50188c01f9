import type { Readable } from 'node:stream'

/**
 * The one small interface every storage sits behind. Paths are relative,
 * already checked by `safeStoredPath` (no `..`, not absolute); an adapter
 * never sees a client's file name.
 */
export interface StorageAdapter {
  /** Shown in logs. */
  readonly kind: string
  /** Stores a file read from a local path (the staged upload), with its content type. */
  put(path: string, sourceFile: string, contentType: string): Promise<void>
  /** A stream of the file and its size, or null when it is not there. */
  get(path: string): Promise<{ stream: Readable; size: number } | null>
  exists(path: string): Promise<boolean>
  /** Removes the file; a missing file is not an error. */
  delete(path: string): Promise<void>
  /** Copies a stored file to a new path (draft twins get their own copy). */
  copy(from: string, to: string): Promise<void>
  /** The direct URL of the file, or null when the storage has none. */
  publicUrl?(path: string): string | null
  /** A pre-signed URL valid for `seconds`, or null when the storage cannot sign. */
  temporaryUrl?(
    path: string,
    seconds: number,
    download: { contentType: string; filename: string },
  ): Promise<string | null>
}

/** A stored path the storage may be asked about: relative, no `..`, `.` or empty segment, no backslash or NUL. */
export function safeStoredPath(path: unknown): string | null {
  if (typeof path !== 'string' || path.length === 0 || path.length > 1024) return null
  if (path.startsWith('/') || path.includes('\\') || path.includes('\u0000') || /^[a-z]+:/i.test(path)) return null
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return null
  return path
}

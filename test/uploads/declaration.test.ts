/**
 * The `uploadable` declaration checked at start-up (contract: "Uploadable
 * fields": two fields of one type must not share a stored-path property, or
 * startup fails), and the small pure parts: sizes, stored names and paths.
 */
import { describe, expect, it } from '@jest/globals'
import { buildConfig } from 'payload'
import { postgresAdapter } from '@payloadcms/db-postgres'
import { cwaPlugin, defineComponent } from 'payload-cwa'
import { parseSize, resolveFields } from '../../plugins/cwa/dist/features/uploads/options.js'
import { copyName, storedName, variantName } from '../../plugins/cwa/dist/features/uploads/names.js'
import { safeStoredPath } from '../../plugins/cwa/dist/features/uploads/storage/adapter.js'
import { siteStorage } from '../../src/config/storage'

const configWith = (uploadable: Record<string, unknown>, options = {}) =>
  buildConfig({
    secret: 'x'.repeat(32),
    db: postgresAdapter({ pool: { connectionString: 'postgres://127.0.0.1:1/none' }, idType: 'uuid' }),
    collections: [defineComponent({ shortName: 'Doc', uploadable: uploadable as never })],
    plugins: [cwaPlugin(options)],
  })

describe('start-up checks', () => {
  it('refuses two fields sharing a stored-path property', async () => {
    await expect(configWith({ a: {}, b: {} })).rejects.toThrow('Doc.a and Doc.b both store their path in "filename"')
    await expect(configWith({ a: { property: 'p' }, b: { property: 'p' } })).rejects.toThrow(
      'both store their path in "p"',
    )
  })

  it('refuses an unknown storage alias, an unknown filter and an unsafe prefix', async () => {
    await expect(configWith({ a: { adapter: 'nowhere' } })).rejects.toThrow(
      'uses storage "nowhere", which is not registered',
    )
    await expect(configWith({ a: { imagineFilters: ['huge'] } })).rejects.toThrow('unknown image filter "huge"')
    await expect(configWith({ a: { prefix: '../up/' } })).rejects.toThrow('unsafe prefix')
  })

  it('accepts a valid declaration and adds the transient and stored-path fields', async () => {
    const config = await configWith({
      file: { maxSize: '2M' },
      preview: { property: 'previewPath', imagineFilters: ['square'] },
    })
    const doc = config.collections.find((c) => c.slug === 'docs')!
    const names = doc.fields.flatMap((f) => ('name' in f ? [f.name] : []))
    expect(names).toEqual(expect.arrayContaining(['file', 'filename', 'preview', 'previewPath']))
    expect((doc.custom as any).cwa.writeOnly).toEqual(['file', 'preview'])
    expect((doc.custom as any).cwa.readOnly).toEqual(['filename', 'previewPath'])
  })
})

describe('sizes, names and paths', () => {
  it('reads sizes with binary units', () => {
    expect(parseSize('5M')).toBe(5 * 1024 * 1024)
    expect(parseSize('500K')).toBe(500 * 1024)
    expect(parseSize('1G')).toBe(1024 ** 3)
    expect(parseSize(1234)).toBe(1234)
    expect(() => parseSize('lots')).toThrow('is not a file size')
    expect(resolveFields('X', { f: {} })[0]).toMatchObject({
      adapter: 'local',
      urlGenerator: 'api',
      property: 'filename',
      maxPixels: 40_000_000,
      maxSize: null,
    })
  })

  it('builds stored names from a cleaned stem, a token and the sniffed extension', () => {
    expect(storedName('img/', 'Mon Été.JPG', 'jpg')).toMatch(/^img\/Mon-Ete-[0-9a-f]{12}\.jpg$/)
    expect(storedName('', '..\\..\\windows\\win.ini', 'bin')).toMatch(/^win-[0-9a-f]{12}\.bin$/)
    expect(storedName('', null, 'png')).toMatch(/^[0-9a-f-]{36}\.png$/)
    expect(variantName('img/a-0123456789ab.jpg', 'thumbnail', 1, 'webp')).toBe('img/a-0123456789ab.thumbnail.webp')
    expect(variantName('img/a-0123456789ab.jpg', 'thumbnail', 2, 'webp')).toBe('img/a-0123456789ab.thumbnail-2.webp')
    expect(copyName('img/a-0123456789ab.jpg')).toMatch(/^img\/a-(?!0123456789ab)[0-9a-f]{12}\.jpg$/)
  })

  it('accepts only relative stored paths without dot segments', () => {
    expect(safeStoredPath('a/b-1.png')).toBe('a/b-1.png')
    for (const bad of ['', '/etc/passwd', '../x', 'a/../../x', 'a//b', 'a\\b', 'C:/x', 'a/./b', null, 42])
      expect(safeStoredPath(bad)).toBeNull()
  })
})

describe('the local adapter', () => {
  it('puts, reads, copies and deletes under its directory, gives public URLs only with publicUrl, and refuses paths leaving it', async () => {
    const { mkdtempSync, rmSync, writeFileSync, existsSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const path = await import('node:path')
    const { localStorage } = await import('../../plugins/cwa/dist/features/uploads/storage/local.js')
    const dir = mkdtempSync(path.join(tmpdir(), 'cwa-local-adapter-'))
    try {
      const staged = path.join(dir, 'staged')
      writeFileSync(staged, 'hello')
      const storage = localStorage({ directory: path.join(dir, 'root'), publicUrl: 'https://cdn.example/files/' })
      await storage.put('a/b-1.txt', staged, 'text/plain')
      expect(existsSync(staged)).toBe(false)
      expect(await storage.exists('a/b-1.txt')).toBe(true)
      const got = await storage.get('a/b-1.txt')
      let text = ''
      for await (const chunk of got!.stream) text += String(chunk)
      expect([got!.size, text]).toEqual([5, 'hello'])
      await storage.copy('a/b-1.txt', 'a/c-2.txt')
      expect(await storage.exists('a/c-2.txt')).toBe(true)
      await storage.delete('a/b-1.txt')
      await storage.delete('a/b-1.txt') // a missing file is not an error
      expect(await storage.get('a/b-1.txt')).toBeNull()
      expect(storage.publicUrl!('a/c d.txt')).toBe('https://cdn.example/files/a/c%20d.txt')
      expect(localStorage({ directory: dir }).publicUrl!('x')).toBeNull()
      await expect(storage.get('../staged')).rejects.toThrow('unsafe stored path')
      await expect(storage.delete('/etc/passwd')).rejects.toThrow('unsafe stored path')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("the reference site's storage aliases", () => {
  it('has local under CWA_DATA_DIR/uploads, and s3 only when S3_BUCKET is set', () => {
    expect(siteStorage({ CWA_DATA_DIR: '/srv/cwa' })).toEqual({
      local: { adapter: 'local', directory: '/srv/cwa/uploads' },
    })
    const withS3 = siteStorage({
      CWA_DATA_DIR: '/srv/cwa',
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_PUBLIC_URL: 'https://cdn.example',
    })
    expect(withS3.s3).toEqual({
      adapter: 's3',
      bucket: 'media',
      region: undefined,
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'k',
      secretAccessKey: 's',
      publicUrl: 'https://cdn.example',
    })
  })
})

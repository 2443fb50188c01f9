import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import type { StorageAdapter } from './adapter.js'

export interface S3StorageOptions {
  bucket: string
  region?: string
  endpoint?: string
  accessKeyId?: string
  secretAccessKey?: string
  /** Path-style addressing (`endpoint/bucket/key`), as most S3-compatible servers want. Default true when `endpoint` is set. */
  forcePathStyle?: boolean
  /** Base URL of public objects (a CDN); default the endpoint's bucket URL when `publicObjects` is true. */
  publicUrl?: string
  /** Objects are publicly readable at the bucket URL. Default false. */
  publicObjects?: boolean
}

const missing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404
}

/**
 * Any S3-compatible server through @aws-sdk/client-s3 (the client
 * @payloadcms/storage-s3 uses). Public URLs from `publicUrl`, or the bucket
 * URL when `publicObjects`; temporary URLs are pre-signed GETs.
 */
export function s3Storage(options: S3StorageOptions): StorageAdapter {
  const client = new S3Client({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? !!options.endpoint,
    ...(options.accessKeyId && options.secretAccessKey ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } } : {}),
  })
  const Bucket = options.bucket
  const encoded = (key: string) => key.split('/').map(encodeURIComponent).join('/')
  const base = options.publicUrl ?? (options.publicObjects && options.endpoint ? `${options.endpoint.replace(/\/$/, '')}/${Bucket}` : null)
  return {
    kind: 's3',
    async put(key, sourceFile, contentType) {
      const { size } = await stat(sourceFile)
      // A known length: the file streams to the server as it is read, never whole in memory.
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: createReadStream(sourceFile), ContentLength: size, ContentType: contentType }))
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }))
        return { stream: out.Body as Readable, size: Number(out.ContentLength ?? 0) }
      } catch (error) {
        if (missing(error)) return null
        throw error
      }
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }))
        return true
      } catch (error) {
        if (missing(error)) return false
        throw error
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
    },
    async copy(from, to) {
      await client.send(new CopyObjectCommand({ Bucket, Key: to, CopySource: `${Bucket}/${encoded(from)}` }))
    },
    publicUrl: (key) => (base ? `${base}/${encoded(key)}` : null),
    temporaryUrl: (key, seconds, download) =>
      getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentType: download.contentType,
          ResponseContentDisposition: `inline; filename="${download.filename.replace(/[^\w.-]/g, '_')}"`,
        }),
        { expiresIn: seconds },
      ),
  }
}

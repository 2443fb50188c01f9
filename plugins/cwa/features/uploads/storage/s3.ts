import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
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

/** The AWS SDK, loaded at the first S3 operation: a site on local storage (and every command) never pays its load. */
let sdk:
  | Promise<{ s3: typeof import('@aws-sdk/client-s3'); presigner: typeof import('@aws-sdk/s3-request-presigner') }>
  | undefined
const loadSdk = () =>
  (sdk ??= Promise.all([
    // Optional peers, resolved by Node when S3 is used: a bundler (Next.js) must not look for them in an app without S3.
    import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@aws-sdk/client-s3'),
    import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@aws-sdk/s3-request-presigner'),
  ]).then(
    ([s3, presigner]) => ({ s3, presigner }),
    (error: unknown) => {
      sdk = undefined
      if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error
      throw new Error(
        'S3 storage needs the optional peer dependencies @aws-sdk/client-s3 and @aws-sdk/s3-request-presigner: ' +
          `npm install @aws-sdk/client-s3 @aws-sdk/s3-request-presigner (${(error as Error).message})`,
      )
    },
  ))

/**
 * Any S3-compatible server through @aws-sdk/client-s3 (the client
 * @payloadcms/storage-s3 uses). Public URLs from `publicUrl`, or the bucket
 * URL when `publicObjects`; temporary URLs are pre-signed GETs.
 */
export function s3Storage(options: S3StorageOptions): StorageAdapter {
  let made:
    | Promise<{
        client: S3Client
        s3: typeof import('@aws-sdk/client-s3')
        presigner: typeof import('@aws-sdk/s3-request-presigner')
      }>
    | undefined
  const connect = () =>
    (made ??= loadSdk().then(({ s3, presigner }) => ({
      s3,
      presigner,
      client: new s3.S3Client({
        region: options.region ?? 'us-east-1',
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        forcePathStyle: options.forcePathStyle ?? !!options.endpoint,
        ...(options.accessKeyId && options.secretAccessKey
          ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
          : {}),
      }),
    })))
  const Bucket = options.bucket
  const encoded = (key: string) => key.split('/').map(encodeURIComponent).join('/')
  const base =
    options.publicUrl ??
    (options.publicObjects && options.endpoint ? `${options.endpoint.replace(/\/$/, '')}/${Bucket}` : null)
  return {
    kind: 's3',
    async put(key, sourceFile, contentType) {
      const { size } = await stat(sourceFile)
      const { client, s3 } = await connect()
      // A known length: the file streams to the server as it is read, never whole in memory.
      await client.send(
        new s3.PutObjectCommand({
          Bucket,
          Key: key,
          Body: createReadStream(sourceFile),
          ContentLength: size,
          ContentType: contentType,
        }),
      )
    },
    async get(key) {
      const { client, s3 } = await connect()
      try {
        const out = await client.send(new s3.GetObjectCommand({ Bucket, Key: key }))
        return { stream: out.Body as Readable, size: Number(out.ContentLength ?? 0) }
      } catch (error) {
        if (missing(error)) return null
        throw error
      }
    },
    async exists(key) {
      const { client, s3 } = await connect()
      try {
        await client.send(new s3.HeadObjectCommand({ Bucket, Key: key }))
        return true
      } catch (error) {
        if (missing(error)) return false
        throw error
      }
    },
    async delete(key) {
      const { client, s3 } = await connect()
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }))
    },
    async copy(from, to) {
      const { client, s3 } = await connect()
      await client.send(new s3.CopyObjectCommand({ Bucket, Key: to, CopySource: `${Bucket}/${encoded(from)}` }))
    },
    publicUrl: (key) => (base ? `${base}/${encoded(key)}` : null),
    temporaryUrl: async (key, seconds, download) => {
      const { client, s3, presigner } = await connect()
      return presigner.getSignedUrl(
        client,
        new s3.GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentType: download.contentType,
          ResponseContentDisposition: `inline; filename="${download.filename.replace(/[^\w.-]/g, '_')}"`,
        }),
        { expiresIn: seconds },
      )
    },
  }
}

import { resolve } from 'node:path'
import type { UploadsPluginOptions } from 'payload-cwa'

/**
 * The reference deployment's storage aliases (reference-deployment.md, "file
 * storage"): `local` under `<CWA_DATA_DIR or ./.data>/uploads`, the default
 * of every file field; `s3` when S3_BUCKET is set, with S3_ENDPOINT,
 * S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE,
 * S3_PUBLIC_URL (public URLs; else files are served through the API).
 */
export function siteStorage(
  env: Record<string, string | undefined> = process.env,
): NonNullable<UploadsPluginOptions['storage']> {
  const storage: NonNullable<UploadsPluginOptions['storage']> = {
    local: { adapter: 'local', directory: resolve(env.CWA_DATA_DIR ?? '.data', 'uploads') },
  }
  if (env.S3_BUCKET) {
    storage.s3 = {
      adapter: 's3',
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      ...(env.S3_FORCE_PATH_STYLE
        ? { forcePathStyle: env.S3_FORCE_PATH_STYLE !== '0' && env.S3_FORCE_PATH_STYLE !== 'false' }
        : {}),
      ...(env.S3_PUBLIC_URL ? { publicUrl: env.S3_PUBLIC_URL } : {}),
    }
  }
  return storage
}

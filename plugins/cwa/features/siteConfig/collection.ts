import type { CollectionConfig } from 'payload'
import { adminOnly, publicRead } from '../../core/access.js'
import { type CoreContext, tableName } from '../../core/context.js'
import type { CwaResourceMeta } from '../../core/types.js'

export const SITE_CONFIG_SLUG = 'site_config_parameters'

/** What a key may be: letters, digits, `_`, `.`, `-` (a path segment as it is). */
export const KEY = /^[A-Za-z0-9_.-]{1,255}$/

/**
 * The contract's stored site-configuration entity: one `{key, value}` row
 * per setting a front end reads at start (site name, robots rules...).
 * Values are text: the CWA front end sends booleans as the strings "true"
 * and "false" and reads them back the same way. Everyone may read them
 * (the front end loads them before anyone signs in); admins write.
 */
export function siteConfigParametersCollection(ctx: CoreContext): CollectionConfig {
  const cwa: CwaResourceMeta = {
    kind: 'core',
    shortName: 'SiteConfigParameter',
    pathPrefix: '/_',
    segment: SITE_CONFIG_SLUG,
    order: ['key', 'createdAt'],
    defaultOrder: { key: 'asc' },
    search: ['key'],
    // A front end reads every parameter in one request.
    itemsPerPage: 100,
    maxItemsPerPage: 500,
  }
  const admin = adminOnly(ctx.options)
  return {
    slug: SITE_CONFIG_SLUG,
    dbName: tableName(ctx, SITE_CONFIG_SLUG),
    labels: { singular: 'Site configuration parameter', plural: 'Site configuration' },
    admin: { useAsTitle: 'key', group: 'Settings', defaultColumns: ['key', 'value', 'updatedAt'] },
    access: { read: publicRead, create: admin, update: admin, delete: admin },
    fields: [
      {
        name: 'key',
        type: 'text',
        required: true,
        unique: true,
        maxLength: 255,
        validate: (value: unknown) =>
          typeof value === 'string' && KEY.test(value) ? true : 'A key is 1 to 255 letters, digits, "_", "." or "-".',
      },
      { name: 'value', type: 'textarea', admin: { description: 'Text; booleans as "true" or "false"' } },
    ],
    custom: { cwa },
  }
}

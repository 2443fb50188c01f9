/**
 * A feature as a third party ships it (issue 28): "acme-announcements", a
 * package of its own that knows payload-cwa only through its front door.
 * Everything it brings is in this one declaration: its options (keys,
 * defaults, checks), a collection, two endpoints with their security and
 * cache policy, a write listener, an admin panel and what it exports. An
 * app adds it with one line: `cwaPlugin({ features: [announcementsFeature] })`.
 * test/core/thirdPartyFeature.test.ts uses it exactly so.
 */
import type { CollectionConfig, Payload } from 'payload'
import {
  adminOnly,
  type CwaFeature,
  input,
  type OptionKeys,
  ROLE_ADMIN,
  type ResolvedCwaOptions,
  type WriteEvent,
  withInput,
} from 'payload-cwa'

/**
 * The body POST /_/announcements takes, declared once: the pipeline refuses any other body with this
 * violation before the handler runs, the handler's `body.text` is typed from it, the document shows it.
 */
const announcementInput = input.object(
  { text: input.string({ pattern: '\\S', description: 'The banner text.' }) },
  { required: ['text'], refuse: { message: 'An announcement needs a text.', code: 'required', path: 'text' } },
)

/** Its options, added to cwaPlugin's by declaration merging, as every built-in feature's are. */
export interface AnnouncementsOptions {
  /** The banner shown when no announcement was posted. Default `Welcome`. */
  fallback?: string
  /** How long browsers and shared caches may keep the banner, in seconds. Default 60. */
  maxAgeSeconds?: number
}

declare module 'payload-cwa' {
  interface CwaPluginOptions {
    announcements?: AnnouncementsOptions
  }
  interface ResolvedCwaOptions {
    /** Present when the feature is added. */
    announcements?: Required<AnnouncementsOptions>
  }
}

const SLUG = 'acme_announcements'

/** Its collection: announcements only admins read and write through Payload (the banner endpoint shows the latest). */
function announcementsCollection(options: ResolvedCwaOptions): CollectionConfig {
  const admins = adminOnly(options)
  return {
    slug: SLUG,
    access: { read: admins, create: admins, update: admins, delete: admins },
    fields: [{ name: 'text', type: 'text', required: true }],
  }
}

/** What the package exports beside its feature: the latest announcement, through the Local API. */
export async function latestAnnouncement(payload: Payload): Promise<string | null> {
  const { docs } = await payload.find({ collection: SLUG, sort: '-createdAt', limit: 1, depth: 0 })
  return docs[0] ? String(docs[0].text) : null
}

/** The write events of the API's resources it saw (its write listener), for the test to read. */
export const seenWrites: WriteEvent[] = []

const keys: OptionKeys<{ announcements?: AnnouncementsOptions }> = {
  announcements: { fallback: true, maxAgeSeconds: true },
}

export const announcementsFeature = {
  name: 'acme-announcements',
  // Its banner answers carry the HTTP cache's headers: added after that feature.
  after: ['httpCache'],
  options: {
    keys,
    resolve: (options) => {
      const given = options.announcements ?? {}
      const maxAgeSeconds = given.maxAgeSeconds ?? 60
      if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds < 0)
        throw new Error('cwa options: announcements.maxAgeSeconds must be a whole number of seconds, 0 or more')
      return { announcements: { fallback: given.fallback ?? 'Welcome', maxAgeSeconds } }
    },
  },
  collections: (ctx) => [announcementsCollection(ctx.options)],
  adminComponents: () => ({ beforeDashboard: ['/test/core/thirdParty/AnnouncementsPanel#AnnouncementsPanel'] }),
  onWrite: async (events) => {
    seenWrites.push(...events)
  },
  extension: {
    name: 'acme-announcements',
    endpoints: (_registry, options) => [
      {
        method: 'GET',
        path: '/_/announcements/banner',
        security: 'public',
        cache: { maxAge: options?.announcements?.maxAgeSeconds ?? 60 },
        handler: async (ctx) => ({
          status: 200,
          output: {
            type: 'Banner',
            id: `${ctx.options.apiPrefix}/_/announcements/banner`,
            data: {
              text: (await latestAnnouncement(ctx.payload)) ?? ctx.options.announcements?.fallback ?? 'Welcome',
            },
          },
        }),
        docs: () => ({
          operation: {
            operationId: 'getAnnouncementBanner',
            tags: ['Announcement'],
            summary: 'The banner: the latest announcement, or the fallback text.',
            responses: { 200: { description: 'The banner.' } },
          },
        }),
      },
      withInput({
        method: 'POST',
        path: '/_/announcements',
        security: { role: ROLE_ADMIN },
        cache: 'no-store',
        input: announcementInput,
        handler: async (ctx, { body }) => {
          const { text } = body
          const created = await ctx.payload.create({ collection: SLUG, data: { text }, req: ctx.req })
          return { status: 201, output: { type: 'Announcement', data: { id: created.id, text } } }
        },
        docs: (kit) => ({
          operation: {
            operationId: 'postAnnouncement',
            tags: ['Announcement'],
            summary: 'Posts an announcement (ROLE_ADMIN).',
            security: kit.security(true),
            responses: { 201: { description: 'Posted.' }, 422: { description: 'No text.' } },
          },
        }),
      }),
    ],
  },
} satisfies CwaFeature

import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/**
 * Options of the orphaned-resource report, declared once
 * (core/defineOptions.ts; contract: orphaned_resources.notify.*; the rest
 * are this library's own).
 */

/** Splits `a@x, Name <b@y>` on the commas between entries (not inside a quoted name). */
export function parseRecipients(value: string | string[] | null | undefined): string[] {
  if (value === null || value === undefined) return []
  const entries = Array.isArray(value) ? value : (value.match(/(?:"[^"]*"|[^,])+/g) ?? [])
  return entries.map((entry) => String(entry).trim()).filter((entry) => entry.length > 0)
}

type ScanIn = 'request' | 'job'

export const orphansOptions = defineOptions({
  orphanedResources: group('The orphaned-resource report ([deleting and orphans](orphans.md#options)).', {
    notify: group('Who gets the orphan alert of `cwa:scan-orphaned`, and what it says.', {
      recipients: option<string | string[] | null, string[]>({
        type: 'string | string[] | null',
        default: [],
        defaultText: 'nobody',
        doc: 'A list, or a comma-separated string; an entry is `address` or `Name <address>`. null or empty: nobody.',
        resolve: (given) => parseRecipients(given),
      }),
      adminPagePath: option.string({
        default: '/_cwa/orphaned',
        doc:
          "Path of the admin page the e-mail's button opens, on user.emailLinks.defaultOrigin (the reference " +
          "site's server forwards `/_cwa/orphaned` to its admin view). An absolute http(s) URL is used as it is: " +
          "the admin panel's view on the service's own origin, e.g. `https://cms.example.com/admin/cwa/orphaned`.",
        resolve: (given, fallback) => {
          const path = given ?? fallback
          return path.startsWith('/') || /^https?:\/\//i.test(path) ? path : `/${path}`
        },
      }),
      subject: option<string | null>({
        type: 'string | null',
        default: null,
        defaultText: 'Orphaned resources changed on <websiteName>',
        doc: "The e-mail's subject.",
      }),
    }),
    gracePeriodSeconds: option.number({
      default: 0,
      doc:
        'A group, position or component created or updated within this many seconds, and every record above it ' +
        'in its chain (with what those hold), is neither listed by the scan nor deleted by the delete endpoint ' +
        "(an editor's half-built page is never swept). 0: the contract's definition, unchanged (docs/orphans.md).",
      resolve: (given, fallback) => {
        const grace = given ?? fallback
        if (!Number.isFinite(grace) || grace < 0)
          throw new Error('orphanedResources.gracePeriodSeconds must be a number of seconds, 0 or more')
        return grace
      },
    }),
    scanIn: option<ScanIn>({
      type: "'request' | 'job'",
      default: 'request',
      doc:
        "`'job'`: POST /_/orphaned_resources/scan queues Payload's `cwaOrphanScan` job and answers at once (the " +
        "jobs runner of `npm start`, or `npx payload jobs:run`, runs it); `'request'`: the scan runs in the request.",
      resolve: (given, fallback) => {
        const scanIn = given ?? fallback
        if (scanIn !== 'request' && scanIn !== 'job')
          throw new Error("orphanedResources.scanIn must be 'request' or 'job'")
        return scanIn
      },
    }),
    schedule: option<string | null>({
      type: 'string | null',
      default: null,
      doc: "A cron expression (Payload's jobs schedule) for a scheduled scan by the jobs runner; null: none.",
    }),
  }),
})

type Declared = typeof orphansOptions
export type OrphanedResourcesOptions = NonNullable<OptionsInput<Declared>['orphanedResources']>

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof orphansOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof orphansOptions> {}
}

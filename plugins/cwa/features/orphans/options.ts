import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions } from '../../core/options.js'

/**
 * Options of the orphaned-resource report, with every default here
 * (contract: orphaned_resources.notify.*; the rest are this library's own).
 */

/** Who gets the orphan alert of `cwa:scan-orphaned`, and what it says. */
export interface OrphanNotifyOptions {
  /** A list, or a comma-separated string; an entry is `address` or `Name <address>`. null or empty: nobody. */
  recipients?: string | string[] | null
  /**
   * Path of the admin page the e-mail's button opens, on user.emailLinks.defaultOrigin. Default `/_cwa/orphaned`
   * (which the reference site's server forwards to its admin view). An absolute http(s) URL is used as it is:
   * the admin panel's view on the service's own origin, e.g. `https://cms.example.com/admin/cwa/orphaned`.
   */
  adminPagePath?: string
  /** The e-mail's subject. Default `Orphaned resources changed on <websiteName>`. */
  subject?: string | null
}

export interface OrphanedResourcesOptions {
  notify?: OrphanNotifyOptions
  /**
   * A group, position or component created or updated within this many
   * seconds, and every record above it in its chain (with what those hold),
   * is neither listed by the scan nor deleted by the delete endpoint (an
   * editor's half-built page is never swept). Default 0: the contract's
   * definition, unchanged. docs/orphans.md states the rule.
   */
  gracePeriodSeconds?: number
  /**
   * `'job'`: POST /_/orphaned_resources/scan queues Payload's `cwaOrphanScan`
   * job and answers at once (the jobs runner of `npm start`, or
   * `npx payload jobs:run`, runs it). Default `'request'`: the scan runs in the request.
   */
  scanIn?: 'request' | 'job'
  /** A cron expression (Payload's jobs schedule) for a scheduled scan by the jobs runner; null (default) for none. */
  schedule?: string | null
}

export interface ResolvedOrphanedResources {
  notify: { recipients: string[]; adminPagePath: string; subject: string | null }
  gracePeriodSeconds: number
  scanIn: 'request' | 'job'
  schedule: string | null
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    orphanedResources?: OrphanedResourcesOptions
  }
  interface ResolvedCwaOptions {
    orphanedResources: ResolvedOrphanedResources
  }
}

export const orphansOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'orphanedResources'>> = {
  orphanedResources: {
    notify: { recipients: true, adminPagePath: true, subject: true },
    gracePeriodSeconds: true,
    scanIn: true,
    schedule: true,
  },
}

/** Splits `a@x, Name <b@y>` on the commas between entries (not inside a quoted name). */
export function parseRecipients(value: string | string[] | null | undefined): string[] {
  if (value === null || value === undefined) return []
  const entries = Array.isArray(value) ? value : (value.match(/(?:"[^"]*"|[^,])+/g) ?? [])
  return entries.map((entry) => String(entry).trim()).filter((entry) => entry.length > 0)
}

export function resolveOrphansOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, 'orphanedResources'> {
  const given = options.orphanedResources ?? {}
  const grace = given.gracePeriodSeconds ?? 0
  if (!Number.isFinite(grace) || grace < 0)
    throw new Error('orphanedResources.gracePeriodSeconds must be a number of seconds, 0 or more')
  const scanIn = given.scanIn ?? 'request'
  if (scanIn !== 'request' && scanIn !== 'job') throw new Error("orphanedResources.scanIn must be 'request' or 'job'")
  const adminPagePath = given.notify?.adminPagePath ?? '/_cwa/orphaned'
  return {
    orphanedResources: {
      notify: {
        recipients: parseRecipients(given.notify?.recipients),
        adminPagePath:
          adminPagePath.startsWith('/') || /^https?:\/\//i.test(adminPagePath) ? adminPagePath : `/${adminPagePath}`,
        subject: given.notify?.subject ?? null,
      },
      gracePeriodSeconds: grace,
      scanIn,
      schedule: given.schedule ?? null,
    },
  }
}

import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import { escapeMarkup } from '../../core/utils/escape.js'
import { loadReport, type OrphanLists, type OrphanReport, storeReport } from './report.js'
import { refreshReport } from './runScan.js'

export type AlertOutcome = 'sent' | 'unchanged' | 'not-sent'

export interface ScanAndNotifyResult {
  report: OrphanReport
  changed: boolean
  outcome: AlertOutcome
  /** The contract's output line (operator console, scan-orphaned rule 6). */
  line: string
}

const KINDS: Array<keyof OrphanLists> = ['componentGroups', 'componentPositions', 'components']
const LABELS: Record<keyof OrphanLists, string> = {
  componentGroups: 'Component groups',
  componentPositions: 'Component positions',
  components: 'Components',
}

export const OUTPUT_LINES: Record<AlertOutcome, string> = {
  sent: 'Orphaned resources: report changed and notification sent.',
  unchanged: 'Orphaned resources: report not changed, none sent.',
  'not-sent': 'Orphaned resources: report changed but the notification could not be sent.',
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === new Set(a).size && new Set(a).size === a.length

/** Alert rule 2: changed when a list holds other IRIs than at the last alert (order ignored); with no earlier alert, when orphans exist. */
export function hasChanged(current: OrphanLists, lastAlert: OrphanLists | null): boolean {
  if (!lastAlert) return KINDS.some((kind) => current[kind].length > 0)
  return KINDS.some((kind) => !sameSet([...new Set(current[kind])], [...new Set(lastAlert[kind])]))
}

/** A usable origin for the admin button (http or https, nothing after the host), or null. */
function usableOrigin(value: string | null | undefined): string | null {
  if (!value) return null
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    return url.origin
  } catch {
    return null
  }
}

/**
 * The e-mail's admin button: adminPagePath on the default origin (alert rule
 * 3), or adminPagePath itself when it is an absolute URL (the admin panel on
 * another origin than the front end's); null without a usable origin.
 */
export function adminButtonUrl(adminPagePath: string, defaultOrigin: string | null | undefined): string | null {
  if (/^https?:\/\//i.test(adminPagePath)) return adminPagePath
  const origin = usableOrigin(defaultOrigin)
  return origin ? `${origin}${adminPagePath}` : null
}

/** Alert rule 3: counts, the IRIs new since the last alert, how many are no longer orphaned, the admin button. */
export function renderAlert(
  payload: Payload,
  current: OrphanLists,
  lastAlert: OrphanLists | null,
): { subject: string; html: string; text: string; button: string | null } {
  const options = getOptions(payload.config)
  const notify = options.orphanedResources.notify
  const button = adminButtonUrl(notify.adminPagePath, options.user.emailLinks.defaultOrigin)
  if (!button)
    payload.logger.warn(
      { defaultOrigin: options.user.emailLinks.defaultOrigin ?? null },
      'Orphan alert: no usable user.emailLinks.defaultOrigin, the e-mail is sent without the admin button',
    )
  const previous = new Set(lastAlert ? KINDS.flatMap((kind) => lastAlert[kind]) : [])
  const now = new Set(KINDS.flatMap((kind) => current[kind]))
  const added = KINDS.flatMap((kind) => current[kind].filter((iri) => !previous.has(iri)))
  const gone = [...previous].filter((iri) => !now.has(iri)).length
  const subject = notify.subject ?? `Orphaned resources changed on ${options.websiteName}`
  const counts = KINDS.map((kind) => `${LABELS[kind]}: ${current[kind].length}`)
  const text = [
    `The orphaned resources of ${options.websiteName} changed.`,
    '',
    ...counts,
    '',
    added.length > 0 ? `New since the last alert (${added.length}):` : 'Nothing new since the last alert.',
    ...added.map((iri) => `  ${iri}`),
    '',
    `No longer orphaned: ${gone}`,
    ...(button ? ['', `Review them: ${button}`] : []),
  ].join('\n')
  const html = [
    `<p>The orphaned resources of ${escapeMarkup(options.websiteName)} changed.</p>`,
    `<ul>${counts.map((line) => `<li>${escapeMarkup(line)}</li>`).join('')}</ul>`,
    added.length > 0
      ? `<p>New since the last alert (${added.length}):</p><ul>${added.map((iri) => `<li>${escapeMarkup(iri)}</li>`).join('')}</ul>`
      : '<p>Nothing new since the last alert.</p>',
    `<p>No longer orphaned: ${gone}</p>`,
    button
      ? `<p><a href="${escapeMarkup(button)}" style="display:inline-block;padding:10px 16px;background:#1f6feb;color:#fff;text-decoration:none;border-radius:4px">Review orphaned resources</a></p>`
      : '',
  ].join('\n')
  return { subject, html, text, button }
}

/**
 * `cwa:scan-orphaned` (contract: orphan alert e-mail rules): scans, stores
 * the report first, then e-mails the recipients when the result differs
 * from the last alert. The last alert moves when an e-mail is sent and when
 * the result matches it; it stays put on a send failure (logged at error
 * level), with no recipients, and with `notify: false`. Never throws on a
 * send failure.
 */
export async function scanAndNotify(
  payload: Payload,
  { notify = true }: { notify?: boolean } = {},
): Promise<ScanAndNotifyResult> {
  const report = await refreshReport(payload)
  const lastAlert = await loadReport(payload, 'alerted')
  const lists: OrphanLists = {
    componentGroups: report.componentGroups,
    componentPositions: report.componentPositions,
    components: report.components,
  }
  const changed = hasChanged(lists, lastAlert)
  const done = (outcome: AlertOutcome): ScanAndNotifyResult => ({
    report,
    changed,
    outcome,
    line: OUTPUT_LINES[outcome],
  })
  if (!changed) {
    await storeReport(payload, 'alerted', lists)
    return done('unchanged')
  }
  const recipients = getOptions(payload.config).orphanedResources.notify.recipients
  if (!notify || recipients.length === 0) return done('not-sent')
  const email = renderAlert(payload, lists, lastAlert)
  try {
    await payload.sendEmail({ to: recipients, subject: email.subject, html: email.html, text: email.text })
  } catch (error) {
    payload.logger.error({ err: error, recipients: recipients.length }, 'Orphan alert e-mail could not be sent')
    return done('not-sent')
  }
  await storeReport(payload, 'alerted', lists)
  return done('sent')
}

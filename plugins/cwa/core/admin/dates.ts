/**
 * Dates in the library's admin views as Payload's own views show them: the
 * config's `admin.dateFormat` (date-fns pattern, Payload's default
 * "MMMM do yyyy, h:mm a") in the editor's interface language, and ages
 * ("3 days ago") in the same language. Isomorphic: server views pass
 * `req.i18n`, client components `useTranslation().i18n`.
 */
import { formatDate } from '@payloadcms/ui/shared'

type I18nLike = Parameters<typeof formatDate>[0]['i18n']

/** Payload's default admin.dateFormat, for a config that sets none. */
export const DEFAULT_DATE_FORMAT = 'MMMM do yyyy, h:mm a'

/** PostgreSQL's microseconds cut to what Date parses everywhere. */
const parse = (value: Date | string | number): Date =>
  value instanceof Date ? value : new Date(typeof value === 'string' ? value.replace(/(\.\d{3})\d+/, '$1') : value)

export function adminDate(
  value: Date | string | number | null | undefined,
  i18n: I18nLike,
  pattern = DEFAULT_DATE_FORMAT,
): string {
  if (value === null || value === undefined || value === '') return ''
  return formatDate({ date: parse(value), i18n, pattern })
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/** How long ago (or, in the future, how soon): "3 days ago", "in 2 hours", "now". */
export function age(value: Date | string | number | null | undefined, language = 'en', now = Date.now()): string {
  if (value === null || value === undefined || value === '') return ''
  const diff = parse(value).getTime() - now
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' })
  for (const [unit, ms] of UNITS) if (Math.abs(diff) >= ms) return format.format(Math.round(diff / ms), unit)
  return format.format(0, 'minute')
}

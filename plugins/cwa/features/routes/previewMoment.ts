import { badRequest } from '../../hydra/errors.js'

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** The `?at=` of a preview: an ISO 8601 date or date-time (a loose "1" is not read as 2001), else 400. */
export function parsePreviewMoment(raw: string): Date {
  const at = new Date(raw)
  if (!ISO_DATE_TIME.test(raw.trim()) || Number.isNaN(at.getTime()))
    throw badRequest('"at" must be an ISO 8601 date-time.')
  return at
}

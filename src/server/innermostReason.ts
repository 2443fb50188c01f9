/**
 * What went wrong, in one line: the message of an error's innermost cause ("connect ECONNREFUSED ...", "duplicate
 * key value ..."), not the wrapper's, which often starts with the whole SQL statement that met it.
 */
export function innermostReason(error: unknown, maxLength = 300): string {
  let cause: unknown = error
  while (cause && typeof cause === 'object' && (cause as { cause?: unknown }).cause)
    cause = (cause as { cause?: unknown }).cause
  return String((cause as { message?: unknown })?.message ?? cause)
    .split('\n')[0]!
    .slice(0, maxLength)
}

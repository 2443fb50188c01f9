const MARKUP_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text safe inside HTML or XML content and quoted attribute values. */
export function escapeMarkup(value: string): string {
  return value.replace(/[&<>"']/g, (c) => MARKUP_ESCAPES[c]!)
}

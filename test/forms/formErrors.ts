import type { TestResponse } from '../support/server'

/** A form response's errors, field by field (shared by the form tests). */

/** A formView node: its vars and its children. */
export type View = { vars: Record<string, any>; children: View[] }

/** Errors of every field of a form response, by name (repeated inputs as `field.input`), only those with errors. */
export function errorsByField(response: TestResponse): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const walk = (view: View, prefix: string) => {
    for (const c of view.children) {
      const name = prefix ? `${prefix}.${c.vars.name}` : c.vars.name
      if (c.vars.errors.length > 0) out[name] = c.vars.errors
      walk(c, name)
    }
  }
  walk(response.body.formView, '')
  return out
}

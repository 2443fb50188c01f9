/**
 * The formView of the contract: a Symfony-compatible FormView tree as JSON.
 * Root vars carry valid/submitted/errors/action/attr; children form an
 * array identified by `vars.full_name`; passwords are never sent back.
 */
import { humanize, kindOf } from './fields.js'
import { childNames, childState, type FormState } from './submission.js'
import type { Attributes, FormFieldDefinition, FormTypeDefinition, RepeatedField } from './types.js'

export interface FormView {
  vars: Record<string, unknown>
  children: FormView[]
  rendered: boolean
  methodRendered: boolean
}

interface Node {
  name: string
  fullName: string
  id: string
  prefixes: string[]
  label: string | false
  attr: Attributes
  required: boolean
  disabled: boolean
  errors: string[]
  submitted: boolean
  extra: Record<string, unknown>
  children: FormView[]
}

function node(n: Node): FormView {
  const unique = `_${n.id}`
  return {
    vars: {
      name: n.name,
      full_name: n.fullName,
      id: n.id,
      value: null,
      ...n.extra,
      label: n.label,
      attr: n.attr,
      required: n.required,
      disabled: n.disabled,
      errors: n.errors,
      valid: n.errors.length === 0 && n.children.every((c) => c.vars.valid === true),
      submitted: n.submitted,
      compound: n.children.length > 0,
      block_prefixes: ['form', ...n.prefixes, unique],
      unique_block_prefix: unique,
    },
    children: n.children,
    rendered: false,
    methodRendered: false,
  }
}

const messages = (state: FormState, path: string) => (state.errors.get(path) ?? []).map((v) => v.message)

function repeatedChildren(
  field: RepeatedField,
  parent: { fullName: string; id: string },
  state: FormState,
): FormView[] {
  const kind = kindOf(field)
  const values = state.childValues[field.name] ?? {}
  const options = [field.first, field.second]
  return childNames(field).map((name, index) =>
    node({
      name,
      fullName: `${parent.fullName}[${name}]`,
      id: `${parent.id}_${name}`,
      prefixes: kind.prefixes,
      label:
        options[index]?.label ?? (index === 0 ? humanize(field.name) : `Repeat ${humanize(field.name).toLowerCase()}`),
      attr: options[index]?.attr ?? field.attr ?? {},
      required: field.required ?? false,
      disabled: field.disabled ?? false,
      errors: messages(state, `${field.name}.${name}`),
      submitted: state.submitted,
      extra: kind.view(name in values ? values[name] : state.values[field.name], field),
      children: [],
    }),
  )
}

/** The form (or child form) a field belongs to: its full name and id, which the field's extend. */
interface Parent {
  fullName: string
  id: string
}

function fieldView(field: FormFieldDefinition, parent: Parent, state: FormState): FormView {
  const fullName = `${parent.fullName}[${field.name}]`
  const id = `${parent.id}_${field.name}`
  const common = {
    name: field.name,
    fullName,
    id,
    label: field.label ?? humanize(field.name),
    attr: field.attr ?? {},
    required: field.required ?? false,
    disabled: field.disabled ?? false,
    errors: messages(state, field.name),
    submitted: state.submitted,
  }
  if (field.type === 'form') {
    // A child form: its fields nested under its name (`example_form[address][street]`), its own errors on itself.
    const child = childState(state, field)
    // common.errors holds the child form's own errors too (submission.ts files them under its name).
    const children = field.form.fields.map((inner) => fieldView(inner, { fullName, id }, child))
    const value = Object.fromEntries(children.map((c) => [c.vars.name, c.vars.value]))
    return node({ ...common, prefixes: [], extra: { value }, children })
  }
  if (field.type === 'repeated') {
    const children = repeatedChildren(field, { fullName, id }, state)
    const value = Object.fromEntries(children.map((c) => [c.vars.name, c.vars.value]))
    return node({ ...common, prefixes: ['repeated'], extra: { value }, children })
  }
  const kind = kindOf(field)
  return node({ ...common, prefixes: kind.prefixes, extra: kind.view(state.values[field.name], field), children: [] })
}

/** The whole formView of a form type in a given state; `action` is the absolute submit URL. */
export function buildFormView(form: FormTypeDefinition, state: FormState, action: string): FormView {
  const children = form.fields.map((field) => fieldView(field, { fullName: form.formName, id: form.formName }, state))
  const view = node({
    name: form.formName,
    fullName: form.formName,
    id: form.formName,
    prefixes: [],
    label: false,
    attr: form.attr ?? {},
    required: true,
    disabled: false,
    errors: messages(state, ''),
    submitted: state.submitted,
    extra: { action, method: 'POST', value: null },
    children,
  })
  return view
}

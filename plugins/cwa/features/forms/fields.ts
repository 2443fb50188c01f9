/**
 * Field kinds: how each field type reads a submitted value, which rules it
 * implies and what its view carries. Block prefixes follow Symfony's form
 * type inheritance (email extends text, etc.), which the front end uses to
 * pick the input to render.
 */
import { choice, email, range } from './constraints.js'
import type { ChoiceField, ChoiceOption, Constraint, FormFieldDefinition, NumberField } from './types.js'

/** The result of reading one submitted value: the value, or a shape the field cannot take. */
export type ReadResult = { ok: true; value: unknown } | { ok: false }

export interface FieldKind {
  /** Block prefixes between `form` and the field's unique prefix. */
  prefixes: string[]
  /** Reads a submitted value (undefined when not sent); empty input becomes null. */
  read(raw: unknown, field: FormFieldDefinition): ReadResult
  /** Rules the type implies (an email field checks the address). */
  implied(field: FormFieldDefinition): Constraint[]
  /** `vars.value` (never a password), plus vars of the type (choices, checked...). */
  view(value: unknown, field: FormFieldDefinition): Record<string, unknown>
  /** Whether a submitted value may ever be sent back. */
  echoes: boolean
}

const invalid: ReadResult = { ok: false }

/** Symfony's submit: scalars become strings, false is no value; arrays are not a scalar field's value. */
function readString(raw: unknown, field: FormFieldDefinition, trim: boolean): ReadResult {
  if (raw === undefined || raw === null || raw === false) return { ok: true, value: null }
  if (typeof raw === 'object') return invalid
  let value = raw === true ? '1' : String(raw)
  if (field.trim ?? trim) value = value.trim()
  return { ok: true, value: value === '' ? null : value }
}

const textKind = (
  prefixes: string[],
  implied: (field: FormFieldDefinition) => Constraint[] = () => [],
  echoes = true,
): FieldKind => ({
  prefixes,
  read: (raw, field) => readString(raw, field, echoes),
  implied,
  view: (value) => ({ value: echoes && typeof value === 'string' ? value : '' }),
  echoes,
})

export function choiceOptions(field: ChoiceField): ChoiceOption[] {
  return field.choices.map((c) => (typeof c === 'string' ? { value: c, label: c } : c))
}

const choiceKind: FieldKind = {
  prefixes: ['choice'],
  read(raw, field) {
    if (!(field as ChoiceField).multiple) return readString(raw, field, false)
    if (raw === undefined || raw === null) return { ok: true, value: [] }
    if (!Array.isArray(raw) || raw.some((v) => v === null || typeof v === 'object')) return invalid
    return { ok: true, value: raw.map(String) }
  },
  implied: (field) => [choice(choiceOptions(field as ChoiceField).map((o) => o.value))],
  view(value, field) {
    const f = field as ChoiceField
    return {
      value: f.multiple ? (Array.isArray(value) ? value : []) : typeof value === 'string' ? value : '',
      choices: choiceOptions(f).map((o) => ({ label: o.label, value: o.value, data: o.value, attr: {} })),
      multiple: f.multiple ?? false,
      expanded: f.expanded ?? false,
      placeholder: f.placeholder ?? null,
    }
  },
  echoes: true,
}

const FALSE_VALUES = new Set<unknown>([undefined, null, false, '', '0', 'false'])

const checkboxKind: FieldKind = {
  prefixes: ['checkbox'],
  read: (raw) => (raw !== null && typeof raw === 'object' ? invalid : { ok: true, value: !FALSE_VALUES.has(raw) }),
  implied: () => [],
  view: (value) => ({ value: '1', checked: value === true }),
  echoes: true,
}

const numberKind: FieldKind = {
  prefixes: ['number'],
  read(raw) {
    if (raw === undefined || raw === null || raw === '') return { ok: true, value: null }
    const value =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN
    return Number.isFinite(value) ? { ok: true, value } : invalid
  },
  implied: (field) => {
    const { min, max } = field as NumberField
    return min === undefined && max === undefined ? [] : [range({ min, max })]
  },
  view: (value) => ({ value: typeof value === 'number' ? String(value) : '' }),
  echoes: true,
}

const dateKind: FieldKind = {
  prefixes: ['date'],
  read(raw, field) {
    const read = readString(raw, field, true)
    if (!read.ok || read.value === null) return read
    const value = String(read.value)
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
    // A real calendar day: 2026-02-30 is refused, not rolled over.
    const day = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null
    const valid =
      day !== null &&
      day.getUTCFullYear() === Number(match![1]) &&
      day.getUTCMonth() === Number(match![2]) - 1 &&
      day.getUTCDate() === Number(match![3])
    return valid ? { ok: true, value } : invalid
  },
  implied: () => [],
  view: (value) => ({ value: typeof value === 'string' ? value : '', widget: 'single_text', type: 'date' }),
  echoes: true,
}

/** Every simple (non-compound) field kind, by field type. */
export const FIELD_KINDS: Record<Exclude<FormFieldDefinition['type'], 'repeated' | 'form'>, FieldKind> = {
  text: textKind(['text']),
  textarea: textKind(['text', 'textarea']),
  email: textKind(['text', 'email'], () => [email()]),
  password: textKind(['text', 'password'], () => [], false),
  hidden: textKind(['hidden']),
  choice: choiceKind,
  checkbox: checkboxKind,
  number: numberKind,
  date: dateKind,
}

/** The kind of a simple field, or of the inputs of a repeated field. */
export function kindOf(field: Exclude<FormFieldDefinition, { type: 'form' }>): FieldKind {
  return FIELD_KINDS[field.type === 'repeated' ? field.inner : field.type]
}

/** A label from a property name: `plainPassword` -> `Plain password`. */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * Reading and validating a submitted form body. A POST is a full submit
 * (a missing field counts as empty); a PATCH validates only the fields it
 * sends. The result feeds both the formView and the success event.
 */
import type { HydraContext } from '../../hydra/context.js'
import { HttpError, type Violation, violation } from '../../hydra/errors.js'
import { isEmpty, notBlank } from './constraints.js'
import { kindOf } from './fields.js'
import type { ChildFormField, Constraint, FormFieldDefinition, FormTypeDefinition, RepeatedField } from './types.js'

/** The state a formView is built from. Error keys: '' (the form), a field name, or `field.child`. */
export interface FormState {
  submitted: boolean
  /** Field values: initial values, overwritten by what was read from the body (repeated fields collapsed). */
  values: Record<string, unknown>
  /** Values of the inputs of repeated fields, as submitted. */
  childValues: Record<string, Record<string, unknown>>
  errors: Map<string, Violation[]>
  /** States of child forms, by field name (their errors are also in `errors`, under `field.path`). */
  children: Record<string, FormState>
}

export const MISSING_ROOT_KEY = 'Form object key could not be found.'
const NOT_VALID = 'This value is not valid.'

export function initialState(values: Record<string, unknown>): FormState {
  return { submitted: false, values: { ...values }, childValues: {}, errors: new Map(), children: {} }
}

export const isValid = (state: FormState) => state.errors.size === 0

/** Every violation, propertyPath being the path inside the form's data (`plainPassword`, `plainPassword.first`, '' for the form). */
export function violationsOf(state: FormState): Violation[] {
  return [...state.errors.values()].flat()
}

export function addError(state: FormState, path: string, message: string, code: string | null): void {
  const list = state.errors.get(path) ?? []
  list.push(violation(path, message, code))
  state.errors.set(path, list)
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const childNames = (field: RepeatedField): [string, string] => [
  field.first?.name ?? 'first',
  field.second?.name ?? 'second',
]

/** The rules a field's value is checked against, in order. */
function rulesOf(field: FormFieldDefinition): Constraint[] {
  const implied = field.type === 'form' ? [] : kindOf(field).implied(field)
  return [...(field.required ? [notBlank()] : []), ...implied, ...(field.constraints ?? [])]
}

/** The state of a child form that was not sent (a GET, or a PATCH leaving it out): its initial values. */
export function childState(state: FormState, field: ChildFormField): FormState {
  const initial = state.values[field.name]
  return state.children[field.name] ?? { ...initialState(isObject(initial) ? initial : {}), submitted: state.submitted }
}

/**
 * Reads a repeated field. Returns whether its value should be validated:
 * not when the two inputs differ (the mismatch is the only error, as in
 * Symfony), nor on a PATCH that did not send the first input.
 */
function readRepeated(state: FormState, field: RepeatedField, raw: unknown, partial: boolean): boolean {
  const [first, second] = childNames(field)
  if (raw !== undefined && raw !== null && !isObject(raw)) {
    addError(state, field.name, NOT_VALID, 'invalid')
    state.values[field.name] = null
    return false
  }
  const input = (raw ?? {}) as Record<string, unknown>
  const read: Record<string, unknown> = {}
  let shapeError = false
  for (const name of [first, second]) {
    const result = kindOf(field).read(input[name], field)
    if (result.ok) read[name] = result.value
    else {
      addError(state, `${field.name}.${name}`, NOT_VALID, 'invalid')
      read[name] = null
      shapeError = true
    }
  }
  state.childValues[field.name] = read
  const bothSent = !partial || (Object.hasOwn(input, first) && Object.hasOwn(input, second))
  if (!shapeError && bothSent && read[first] !== read[second]) {
    addError(state, field.name, field.invalidMessage ?? 'The values do not match.', 'not_equal')
    state.values[field.name] = null
    return false
  }
  state.values[field.name] = read[first]
  return !shapeError && (!partial || Object.hasOwn(input, first))
}

/**
 * Validates a submitted body against a form type. Throws the contract's 422
 * when the body is not nested under the form name; otherwise returns the
 * state with every violation (the caller decides on 200/201/422).
 */
export async function submitForm(
  type: FormTypeDefinition,
  body: unknown,
  ctx: HydraContext,
  { partial, initial }: { partial: boolean; initial: Record<string, unknown> },
): Promise<FormState> {
  if (!isObject(body) || !isObject(body[type.formName])) throw new HttpError(422, MISSING_ROOT_KEY)
  return readFields(type.fields, body[type.formName] as Record<string, unknown>, ctx, { partial, initial })
}

/** Reads and validates the fields of a form (or of a child form) from its part of the body. */
async function readFields(
  fields: FormFieldDefinition[],
  input: Record<string, unknown>,
  ctx: HydraContext,
  { partial, initial }: { partial: boolean; initial: Record<string, unknown> },
): Promise<FormState> {
  // A full submit starts from nothing (missing fields are empty); a partial one keeps what it does not send.
  const state: FormState = { ...initialState(partial ? initial : {}), submitted: true }

  const known = new Set(fields.map((f) => f.name))
  if (Object.keys(input).some((key) => !known.has(key)))
    addError(state, '', 'This form should not contain extra fields.', 'extra_fields')

  const toValidate: FormFieldDefinition[] = []
  for (const field of fields) {
    const sent = Object.hasOwn(input, field.name)
    if (partial && !sent) continue
    if (field.type === 'form') {
      const raw = input[field.name]
      if (raw !== undefined && raw !== null && !isObject(raw)) {
        addError(state, field.name, NOT_VALID, 'invalid')
        continue
      }
      const previous = state.values[field.name]
      const child = await readFields(field.form.fields, (raw ?? {}) as Record<string, unknown>, ctx, {
        partial,
        initial: isObject(previous) ? previous : {},
      })
      state.children[field.name] = child
      state.values[field.name] = child.values
      // The child's errors, under the child's name: `address.street`, '' (the child form itself) as `address`.
      for (const [path, list] of child.errors)
        for (const v of list) addError(state, path ? `${field.name}.${path}` : field.name, v.message, v.code)
      if (field.required || field.constraints?.length) toValidate.push(field)
      continue
    }
    if (field.type === 'repeated') {
      if (readRepeated(state, field, input[field.name], partial)) toValidate.push(field)
      continue
    }
    const result = kindOf(field).read(input[field.name], field)
    if (result.ok) {
      state.values[field.name] = result.value
      toValidate.push(field)
    } else {
      state.values[field.name] = null
      addError(state, field.name, NOT_VALID, 'invalid')
    }
  }

  for (const field of toValidate) {
    const value = state.values[field.name]
    for (const rule of rulesOf(field)) {
      if (!rule.validatesEmpty && isEmpty(value)) continue
      const message = await rule.validate(value, { ctx, data: state.values, field })
      if (message) addError(state, field.name, message, rule.code)
    }
  }
  return state
}

/**
 * Form types: server-side forms rendered as JSON (formView) and validated
 * field by field. A form type is a plain, typed declaration (its "class
 * name", form name, fields and an optional success handler); rendering and
 * submission are built on it by the forms plugin.
 */
import type { HydraContext } from '../../hydra/context.js'

/** Scalar HTML attributes of a field or form (`vars.attr`). */
export type Attributes = Record<string, string | number | boolean>

/** What a constraint sees besides the value. */
export interface ConstraintContext {
  ctx: HydraContext
  /** Every field's value as read from the body (repeated fields collapsed to one value). */
  data: Record<string, unknown>
  field: FormFieldDefinition
}

/** One validation rule. Returns the violation messages (none when valid). */
export interface Constraint {
  /** Stable violation code (e.g. `not_blank`, `too_short`). */
  code: string
  /** Its settings (`{max: 20}`), part of the form type's content hash (cwa:form-cache-purge); code is not. */
  options?: unknown
  /** Rules skip empty values (null, '', []) unless they say otherwise, as Symfony's do: NotBlank decides about emptiness. */
  validatesEmpty?: boolean
  validate(value: unknown, context: ConstraintContext): string | null | Promise<string | null>
}

interface FieldCommon {
  /** `vars.name`: the property name in the submitted body. */
  name: string
  /** `vars.label`; defaults to a humanized name; false hides it. */
  label?: string | false
  attr?: Attributes
  /** `vars.required`; also adds a NotBlank rule. */
  required?: boolean
  /** Value shown before anything is submitted. */
  default?: unknown
  constraints?: Constraint[]
  disabled?: boolean
  /** Trim submitted strings (default true, never for passwords). */
  trim?: boolean
}

export interface TextLikeField extends FieldCommon {
  type: 'text' | 'textarea' | 'email' | 'password' | 'hidden'
}

export interface ChoiceOption {
  value: string
  label: string
}

export interface ChoiceField extends FieldCommon {
  type: 'choice'
  /** Allowed values; a plain string is its own label. */
  choices: Array<string | ChoiceOption>
  multiple?: boolean
  expanded?: boolean
  placeholder?: string | null
}

export interface CheckboxField extends FieldCommon {
  type: 'checkbox'
}

/** A number (JSON number or numeric string); `min`/`max` bound it. */
export interface NumberField extends FieldCommon {
  type: 'number'
  min?: number
  max?: number
}

/** A calendar date, `YYYY-MM-DD` (an HTML5 date input's value). */
export interface DateField extends FieldCommon {
  type: 'date'
}

/** Two inputs (`first`, `second`) that must hold the same value (password confirmation). */
export interface RepeatedField extends FieldCommon {
  type: 'repeated'
  /** Field type of both inputs. */
  inner: 'text' | 'email' | 'password'
  first?: { name?: string; label?: string | false; attr?: Attributes }
  second?: { name?: string; label?: string | false; attr?: Attributes }
  /** Violation message when the two values differ. */
  invalidMessage?: string
}

/**
 * A child form: another form type's fields nested under this field's name
 * (Symfony's compound child form, `example_form[address][street]`), read,
 * validated and rendered like the parent's own, to any depth. Its value is
 * an object of its fields' values.
 */
export interface ChildFormField extends FieldCommon {
  type: 'form'
  /** The child form type (its fields; its formName is not used: the child is named by this field). */
  form: FormTypeDefinition
}

/**
 * Every field type. A new simple kind is one entry in fields.ts (its
 * reader, block prefixes and view vars); repeated fields and child forms
 * are compound (submission.ts and view.ts).
 */
export type FormFieldDefinition =
  TextLikeField | ChoiceField | CheckboxField | NumberField | DateField | RepeatedField | ChildFormField
export type FormFieldType = FormFieldDefinition['type']

/** The FormSuccessEvent of the contract: dispatched on a successful POST submit only. */
export interface FormSuccessEvent {
  ctx: HydraContext
  /** The Form resource submitted: id (UUID or built-in id), IRI and form type. */
  form: { id: string; iri: string; formType: string }
  formType: FormTypeDefinition
  /** The submitted data, keyed by field name (repeated fields collapsed, empty values null). */
  data: Record<string, unknown>
  /** Set by a listener: sent back to the client instead of the Form resource (a record in it is `embedItem`'s, normalized by the pipeline). */
  result?: unknown
}

/** A success listener; it may set `event.result`. Throwing a ViolationError turns the submit into a 422 with field errors. */
export type FormSuccessListener = (event: FormSuccessEvent) => void | Promise<void>

export interface FormTypeDefinition {
  /** The form type's class name, the value of Form.formType (e.g. ExampleFormType). */
  className: string
  /** The form's name: the root key of a submitted body (e.g. example_form). */
  formName: string
  fields: FormFieldDefinition[]
  attr?: Attributes
  /** Runs before anything is read from a submit (e.g. signed-in users only): throw an HttpError to refuse. */
  authorize?(ctx: HydraContext): void | Promise<void>
  /** Values shown on a GET (and under unsent fields of a PATCH), e.g. pre-filled from the query string. */
  initialData?(ctx: HydraContext): Record<string, unknown> | Promise<Record<string, unknown>>
  /** This type's own success listener (runs before the listeners of the plugin options). */
  onSubmit?: FormSuccessListener
  /**
   * Maps the propertyPath of a ViolationError thrown by a listener to a
   * field name (e.g. the users resource's `password` -> `plainPassword`).
   */
  violationPaths?: Record<string, string>
}

/** Checks a declaration once, when the site is configured. */
export function defineFormType(definition: FormTypeDefinition): FormTypeDefinition {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(definition.formName)) {
    throw new Error(`Form type ${definition.className}: form name "${definition.formName}" must be a plain identifier`)
  }
  checkFields(definition, definition.fields, [definition])
  return definition
}

function checkFields(
  definition: FormTypeDefinition,
  fields: FormFieldDefinition[],
  parents: FormTypeDefinition[],
): void {
  const seen = new Set<string>()
  for (const field of fields) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field.name))
      throw new Error(`Form type ${definition.className}: bad field name "${field.name}"`)
    if (seen.has(field.name)) throw new Error(`Form type ${definition.className} declares ${field.name} twice`)
    seen.add(field.name)
    if (field.type === 'repeated' && (field.first?.name ?? 'first') === (field.second?.name ?? 'second')) {
      throw new Error(`Form type ${definition.className}: ${field.name} needs two distinct child names`)
    }
    if (field.type === 'form') {
      // A form holding itself would nest without end.
      if (parents.includes(field.form))
        throw new Error(`Form type ${definition.className}: child form ${field.name} contains itself`)
      checkFields(definition, field.form.fields, [...parents, field.form])
    }
  }
}

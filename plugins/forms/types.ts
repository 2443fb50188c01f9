/**
 * Form types: server-side forms rendered as JSON (formView) and validated
 * field by field. A form type is a plain declaration; rendering and
 * submission are built on it by the forms plugin.
 */
export type FormFieldType = 'text' | 'email' | 'textarea' | 'choice' | 'password' | 'repeated_password' | 'checkbox' | 'hidden'

export interface FormFieldDefinition {
  /** vars.name of the field. */
  name: string
  type: FormFieldType
  required?: boolean
  /** Allowed values of a choice field. */
  choices?: string[]
  /** Minimum length of a string value. */
  minLength?: number
  /** Repeated fields: names of the two children (default first, second). */
  children?: [string, string]
}

export interface FormTypeDefinition {
  /** The form type's class name, the value of Form.formType (e.g. ExampleFormType). */
  className: string
  /** The form's name: the root key of a submitted body (e.g. example_form). */
  formName: string
  fields: FormFieldDefinition[]
}

export function defineFormType(definition: FormTypeDefinition): FormTypeDefinition {
  const seen = new Set<string>()
  for (const field of definition.fields) {
    if (seen.has(field.name)) throw new Error(`Form type ${definition.className} declares ${field.name} twice`)
    seen.add(field.name)
  }
  return definition
}

/** Registered form types, keyed by class name, read from the plugin options. */
export function formTypesOf(raw: { forms?: { types?: FormTypeDefinition[] } }): Map<string, FormTypeDefinition> {
  return new Map((raw.forms?.types ?? []).map((t) => [t.className, t]))
}

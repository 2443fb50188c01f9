/**
 * Validation rules of form fields, with Symfony's default messages (the
 * front end shows them as they come).
 */
import type { Constraint, ConstraintContext } from './types.js'

export function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    value === false ||
    (Array.isArray(value) && value.length === 0)
  )
}

export function notBlank(message = 'This value should not be blank.'): Constraint {
  return {
    code: 'not_blank',
    options: { message },
    validatesEmpty: true,
    validate: (value) => (isEmpty(value) ? message : null),
  }
}

const plural = (limit: number) => (limit === 1 ? 'character' : 'characters')

export function length({ min, max }: { min?: number; max?: number }): Constraint {
  return {
    code: 'length',
    options: { min, max },
    validate(value) {
      if (typeof value !== 'string') return null
      const size = [...value].length
      if (min !== undefined && size < min)
        return `This value is too short. It should have ${min} ${plural(min)} or more.`
      if (max !== undefined && size > max)
        return `This value is too long. It should have ${max} ${plural(max)} or less.`
      return null
    },
  }
}

// Symfony's "html5" email mode: what a browser's <input type=email> accepts.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

export function email(message = 'This value is not a valid email address.'): Constraint {
  return {
    code: 'invalid_email',
    options: { message },
    validate: (value) => (typeof value === 'string' && !EMAIL.test(value) ? message : null),
  }
}

export function range({ min, max }: { min?: number; max?: number }): Constraint {
  return {
    code: 'range',
    options: { min, max },
    validate(value) {
      if (typeof value !== 'number') return null
      if (min !== undefined && value < min) return `This value should be ${min} or more.`
      if (max !== undefined && value > max) return `This value should be ${max} or less.`
      return null
    },
  }
}

export function regex(pattern: RegExp, message = 'This value is not valid.'): Constraint {
  return {
    code: 'regex',
    options: { pattern: pattern.source, flags: pattern.flags, message },
    validate: (value) => (typeof value === 'string' && !pattern.test(value) ? message : null),
  }
}

export function choice(allowed: string[], message = 'The value you selected is not a valid choice.'): Constraint {
  const set = new Set(allowed)
  return {
    code: 'no_such_choice',
    options: { allowed, message },
    validate: (value) => ((Array.isArray(value) ? value : [value]).every((v) => set.has(String(v))) ? null : message),
  }
}

/**
 * A rule of the application's own, with the request context (caller,
 * Payload) and the whole submitted data: e.g. the current password check.
 */
export function custom(
  validate: (value: unknown, context: ConstraintContext) => string | null | Promise<string | null>,
  { code = 'custom', validatesEmpty = false }: { code?: string; validatesEmpty?: boolean } = {},
): Constraint {
  return { code, validatesEmpty, validate }
}

'use client'
import { type FormEvent, type ReactNode, useState } from 'react'
import type { CwaResource, CwaViolation } from '../client/index.js'

/** One node of a form's `formView` (the contract's Symfony-compatible FormView). */
interface FormView {
  vars: {
    name?: string
    full_name?: string
    id?: string
    label?: string | null
    required?: boolean
    value?: unknown
    block_prefixes?: string[]
    choices?: Array<{ value: string; label: string }>
    multiple?: boolean
    errors?: string[]
    action?: string
  }
  children?: FormView[]
}

const kindOf = (view: FormView) => {
  const prefixes = view.vars.block_prefixes ?? []
  for (const kind of ['repeated', 'checkbox', 'choice', 'textarea', 'email', 'password', 'hidden', 'number', 'date'])
    if (prefixes.includes(kind)) return kind
  return 'text'
}

/** The values of the form's inputs as the submit body nests them: `{ plainPassword: { first, second } }`. */
function valuesOf(form: HTMLFormElement, view: FormView): Record<string, unknown> {
  const data = new FormData(form)
  const read = (node: FormView): unknown => {
    if (node.children?.length) return Object.fromEntries(node.children.map((child) => [child.vars.name, read(child)]))
    const name = node.vars.full_name ?? ''
    if (kindOf(node) === 'checkbox') return data.has(name)
    return node.vars.multiple ? data.getAll(name) : (data.get(name) ?? '')
  }
  return read(view) as Record<string, unknown>
}

/**
 * A Form component as a form: its fields from its `formView`, posted to its submit endpoint as JSON (the session
 * cookie included), each violation shown beside its field, the whole form announced to assistive technology.
 */
export function CwaForm({ form }: { form: CwaResource }) {
  const view = form.formView as FormView | undefined
  const [violations, setViolations] = useState<CwaViolation[]>([])
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle')
  if (!view?.vars.action) return null
  const rootName = view.vars.full_name ?? view.vars.name ?? 'form'

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setStatus('sending')
    try {
      const response = await fetch(view.vars.action!, {
        method: 'POST',
        credentials: 'include',
        headers: { accept: 'application/ld+json', 'content-type': 'application/ld+json' },
        body: JSON.stringify({ [rootName]: valuesOf(event.currentTarget, view) }),
      })
      const body = (await response.json().catch(() => ({}))) as { violations?: CwaViolation[] }
      setViolations(response.ok ? [] : (body.violations ?? []))
      setStatus(response.ok ? 'sent' : 'failed')
    } catch {
      setStatus('failed')
    }
  }

  const errorsFor = (path: string) => violations.filter((violation) => violation.propertyPath === path)
  const field = (node: FormView, path: string): ReactNode => {
    const name = node.vars.full_name ?? ''
    const id = node.vars.id ?? name
    const kind = kindOf(node)
    if (node.children?.length)
      return (
        <fieldset key={id}>
          <legend>{node.vars.label ?? node.vars.name}</legend>
          {node.children.map((child) => field(child, path ? `${path}.${child.vars.name}` : (child.vars.name ?? '')))}
          <Errors id={`${id}-errors`} violations={errorsFor(path)} />
        </fieldset>
      )
    if (kind === 'hidden')
      return <input key={id} type="hidden" name={name} defaultValue={String(node.vars.value ?? '')} />
    const errors = errorsFor(path)
    const describedBy = errors.length ? `${id}-errors` : undefined
    const common = {
      id,
      name,
      required: node.vars.required,
      'aria-invalid': errors.length > 0,
      'aria-describedby': describedBy,
    }
    const control =
      kind === 'textarea' ? (
        <textarea {...common} defaultValue={String(node.vars.value ?? '')} />
      ) : kind === 'checkbox' ? (
        <input {...common} type="checkbox" defaultChecked={Boolean(node.vars.value)} />
      ) : kind === 'choice' ? (
        <select {...common} multiple={node.vars.multiple}>
          {(node.vars.choices ?? []).map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      ) : (
        <input {...common} type={kind} defaultValue={kind === 'password' ? '' : String(node.vars.value ?? '')} />
      )
    return (
      <p key={id} className="cwa-field">
        <label htmlFor={id}>{node.vars.label ?? node.vars.name}</label>
        {control}
        <Errors id={`${id}-errors`} violations={errors} />
      </p>
    )
  }

  return (
    <form className="cwa-form" onSubmit={submit} noValidate aria-busy={status === 'sending'}>
      {(view.children ?? []).map((child) => field(child, child.vars.name ?? ''))}
      <Errors id={`${rootName}-errors`} violations={errorsFor('')} />
      <button type="submit" disabled={status === 'sending'}>
        Send
      </button>
      <p role="status">
        {status === 'sent'
          ? 'Thank you: sent.'
          : status === 'failed' && violations.length === 0
            ? 'Not sent: please try again.'
            : ''}
      </p>
    </form>
  )
}

function Errors({ id, violations }: { id: string; violations: CwaViolation[] }) {
  if (violations.length === 0) return null
  return (
    <span id={id} className="cwa-errors" role="alert">
      {violations.map((violation) => violation.message).join(' ')}
    </span>
  )
}

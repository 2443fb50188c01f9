/**
 * The Form resource's reads and submits: a stored Form (UUID) or a built-in
 * form (fixed id), its formView, PATCH (partial, never the success event)
 * and POST (full submit, FormSuccessEvent) on /submit.
 */
import { commitTransaction, initTransaction, killTransaction, ValidationError } from 'payload'
import type { HydraContext } from '../../hydra/context.js'
import type { EndpointResult } from '../../hydra/endpoint.js'
import { classifyError, HttpError, notFound, ViolationError } from '../../hydra/errors.js'
import type { ItemAnswer } from '../../hydra/embedded.js'
import { loadItem } from '../../hydra/operations.js'
import type { Resource } from '../../core/registry.js'
import { builtInForm, formTypeRegistry } from './registry.js'
import { addError, type FormState, initialState, isValid, submitForm, violationsOf } from './submission.js'
import type { FormSuccessEvent, FormTypeDefinition } from './types.js'
import { buildFormView, type FormView } from './view.js'

export const FORMS_SLUG = 'forms'

interface LoadedForm {
  id: string
  type: FormTypeDefinition
  /** The stored Form; null for a built-in form. */
  doc: Record<string, unknown> | null
}

const stateKey = (id: string) => `forms:state:${id}`

function formsResource(ctx: HydraContext): Resource {
  const resource = ctx.registry.bySlug(FORMS_SLUG)
  if (!resource) throw notFound()
  return resource
}

/** The registered form type of a stored Form; a type removed from the configuration is a server misconfiguration. */
function typeOf(ctx: HydraContext, className: string): FormTypeDefinition {
  const type = formTypeRegistry(ctx.options).types.get(className)
  if (!type) throw new HttpError(500, `Form type ${className} is not registered.`)
  return type
}

/** A Form as the caller may read it: built-in by fixed id, or stored (reads follow the Form resource's access). */
export async function loadForm(ctx: HydraContext, id: string): Promise<LoadedForm> {
  const builtIn = builtInForm(id)
  if (builtIn) return { id, type: builtIn, doc: null }
  const doc = await loadItem(formsResource(ctx), id, ctx, { filtered: false })
  return { id: String(doc.id), type: typeOf(ctx, String(doc.formType)), doc }
}

/** Field defaults; a child form's is the object of its own fields' defaults. */
function defaultsOf(fields: FormTypeDefinition['fields']): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((field) => [
      field.name,
      field.default ?? (field.type === 'form' ? defaultsOf(field.form.fields) : null),
    ]),
  )
}

/**
 * Field defaults, then what the type pre-fills for this request (the query
 * string, the caller). Once per type and request: a collection of Forms of
 * one type reads it once, not once per member.
 */
async function initialValues(type: FormTypeDefinition, ctx: HydraContext): Promise<Record<string, unknown>> {
  const key = `forms:initial:${type.className}`
  const memo = ctx.memo.get(key) as Record<string, unknown> | undefined
  if (memo) return { ...memo }
  const values: Record<string, unknown> = {}
  Object.assign(values, defaultsOf(type.fields))
  for (const [name, value] of Object.entries((await type.initialData?.(ctx)) ?? {})) {
    if (value !== null && value !== undefined) values[name] = value
  }
  ctx.memo.set(key, values)
  return { ...values }
}

/**
 * The absolute submit URL of a Form (`vars.action`): on the configured
 * server URL (SERVER_URL) when there is one, so that a forged Host header
 * cannot point a cached form elsewhere; else on the request's own origin.
 */
function actionUrl(ctx: HydraContext, id: string): string {
  const path = `${ctx.registry.itemIri(formsResource(ctx), id)}/submit`
  try {
    return new URL(path, ctx.payload.config.serverURL || ctx.req.url).href
  } catch {
    return path
  }
}

/** The formView of a Form for this request: the state of a submit in progress, else the initial one. */
export async function formViewOf(ctx: HydraContext, id: string, className: string): Promise<FormView | null> {
  const type = formTypeRegistry(ctx.options).types.get(className)
  if (!type) {
    ctx.payload.logger.warn({ form: id, formType: className }, 'Form type is not registered: formView left empty')
    return null
  }
  const state = (ctx.memo.get(stateKey(id)) as FormState | undefined) ?? initialState(await initialValues(type, ctx))
  return buildFormView(type, state, actionUrl(ctx, id))
}

/** The Form resource, for the pipeline to normalize; a built-in form goes through the same pipeline as a stored one. */
function formItem(ctx: HydraContext, form: LoadedForm): ItemAnswer {
  const resource = formsResource(ctx)
  if (form.doc) return { resource, doc: form.doc }
  const doc = {
    id: form.id,
    formType: form.type.className,
    uiComponent: null,
    uiClassNames: [],
    componentGroups: [],
    componentPositions: { docs: [] },
    createdAt: null,
    updatedAt: null,
  }
  // Nothing stored to prepare: a batch loader would look its id up in the database.
  return { resource, doc, prepared: true }
}

/**
 * Every answer of a built-in (user) form is private and never stored: the
 * password_reset form is pre-filled with the emailed token, and the others
 * answer one signed-in user. A stored form's answers follow the endpoint's
 * (none declared), so the policy is the answer's own.
 */
const cacheOf = (form: LoadedForm): Pick<EndpointResult, 'cache'> => (form.doc ? {} : { cache: 'no-store' })

/** GET of a built-in form by its fixed id (its endpoints declare the built-in forms' `no-store`). */
export async function getBuiltInForm(ctx: HydraContext, id: string): Promise<EndpointResult> {
  const form = await loadForm(ctx, id)
  return { status: 200, item: formItem(ctx, form) }
}

/** A violation from a listener lands on the field it names (through the type's violationPaths), else on the form. */
function recordListenerViolations(state: FormState, type: FormTypeDefinition, error: ViolationError): void {
  const names = new Set(type.fields.map((f) => f.name))
  for (const v of error.violations) {
    const head = v.propertyPath.split(/[.[]/)[0] ?? ''
    const mapped = type.violationPaths?.[head] ?? head
    addError(state, names.has(mapped) ? mapped : '', v.message, v.code)
  }
}

/**
 * FormSuccessEvent: the type's own listener, then those of the plugin
 * options, in one transaction (a failing listener undoes the others'
 * writes). Returns the result a listener set.
 */
async function dispatchSuccess(ctx: HydraContext, form: LoadedForm, data: Record<string, unknown>): Promise<unknown> {
  const event: FormSuccessEvent = {
    ctx,
    form: { id: form.id, iri: ctx.registry.itemIri(formsResource(ctx), form.id), formType: form.type.className },
    formType: form.type,
    data,
  }
  const listeners = [...(form.type.onSubmit ? [form.type.onSubmit] : []), ...formTypeRegistry(ctx.options).listeners]
  const started = await initTransaction(ctx.req)
  try {
    for (const listener of listeners) await listener(event)
    if (started) await commitTransaction(ctx.req)
  } catch (error) {
    if (started) await killTransaction(ctx.req)
    throw error
  }
  return event.result
}

/**
 * PATCH (partial) or POST (full) on /submit. Valid: 200 (PATCH) or 201
 * (POST, after the success event; a listener's result replaces the Form in
 * the body). Invalid: 422 with the Form resource, errors in its formView and
 * the same errors as a `violations` list.
 */
export async function submit(
  ctx: HydraContext,
  id: string,
  body: unknown,
  { partial }: { partial: boolean },
): Promise<EndpointResult> {
  const form = await loadForm(ctx, id)
  await form.type.authorize?.(ctx)
  const state = await submitForm(form.type, body, ctx, { partial, initial: await initialValues(form.type, ctx) })
  let result: unknown
  if (!partial && isValid(state)) {
    try {
      result = await dispatchSuccess(ctx, form, state.values)
    } catch (error) {
      const classified = error instanceof ValidationError ? classifyError(error, !ctx.user, 'POST') : error
      if (!(classified instanceof ViolationError)) throw error
      recordListenerViolations(state, form.type, classified)
    }
  }
  const valid = isValid(state)
  // A listener's result is its own JSON answer.
  if (valid && result !== undefined) return { status: 201, body: result, ...cacheOf(form) }
  ctx.memo.set(stateKey(form.id), state)
  const item = formItem(ctx, form)
  if (!valid) return { status: 422, item: { ...item, with: { violations: violationsOf(state) } }, ...cacheOf(form) }
  return { status: partial ? 200 : 201, item, ...cacheOf(form) }
}
